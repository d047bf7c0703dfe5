/**
 * Issue 37, point 4: a body the database cannot store is a settled outcome, not a retry forever.
 * A change file nested 200,000 levels deep (Postgres: "stack depth limit exceeded"), one holding
 * a number jsonb cannot hold (SQLSTATE 22003) and one with `\u0000` in a string, served over real
 * HTTP: the first sync keeps each deep or overflowing body as bytes with its reason and marks it
 * failed for good; later syncs exit 0 without fetching it again or counting attempts; `status`
 * lists it; `reparse` and `backfill --refetch` are the ways back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  type Answer,
  type HostileRegistry,
  hostileEnv,
  oneDayOfFiles,
  startHostileRegistry,
} from "../helpers/hostile-registry.ts";
import { taxIdOf } from "../values/helpers.ts";

const DAY = "2024-03-05";
const DEPTH = 200_000;
const NAMES = ["deep", "overflow", "nul", "good"] as const;
type Name = (typeof NAMES)[number];
const TAX = Object.fromEntries(NAMES.map((name, i) => [name, taxIdOf(3, i + 1)])) as Record<Name, string>;

const fileBody = (tax: string, newValue: string) =>
  `{"tax_id":"${tax}","changes":[{"heading":"long_name","old_value":"Old","new_value":${newValue}}]}`;
const labelled = (body: string): Answer => ({ headers: { "content-type": "application/json" }, body });

const HOSTILE: Record<Name, (tax: string) => Answer> = {
  deep: (tax) => labelled(fileBody(tax, `${"[".repeat(DEPTH)}"x"${"]".repeat(DEPTH)}`)),
  overflow: (tax) => labelled(fileBody(tax, "1e200000")),
  nul: (tax) => labelled(fileBody(tax, '"B\\u0000C"')),
  good: (tax) => labelled(fileBody(tax, '"Good Kft."')),
};

describe("a body the database cannot store", () => {
  let registry: HostileRegistry;
  let t: TestDatabase;
  let files: Record<Name, (tax: string) => Answer> = { ...HOSTILE };
  const served: Record<string, number> = {};
  const env = () => ({ DATABASE_URL: t.url, ...hostileEnv(registry) });
  const rows = async () => {
    const list = await t.db.sql<
      {
        path: string;
        status: string;
        failed_for_good: boolean;
        attempts: number;
        last_error: string | null;
        kept: number | null;
        parse_status: string | null;
      }[]
    >`
      select path, status, failed_for_good, attempts, last_error, length(body_bytes) as kept, parse_status
      from regwatch.change_files order by path`;
    return Object.fromEntries(list.map((r) => [/\/files\/(\w+)\.json$/.exec(r.path)![1]!, r]));
  };

  beforeAll(async () => {
    t = await createTestDatabase();
    registry = await startHostileRegistry({
      lists: [{ list_key: "wl_settled", list_name: "settled", created_at: "2024-03-01" }],
      changes: oneDayOfFiles(DAY, TAX, () => registry.url),
      file: (path) => {
        const name = /\/files\/(\w+)\.json$/.exec(path)![1] as Name;
        served[name] = (served[name] ?? 0) + 1;
        return files[name](TAX[name]);
      },
    });
  }, 60_000);
  afterAll(async () => {
    await t?.drop();
    await registry?.close();
  });

  it("is kept as bytes with its reason and failed for good by the first sync", async () => {
    const first = await runCli(["sync"], env(), 120_000);
    expect(first.stderr).not.toContain("stack depth");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("failed for good 2");
    const byName = await rows();
    expect(byName.deep).toMatchObject({ status: "failed", failed_for_good: true, attempts: 1 });
    expect(byName.deep!.last_error).toContain("nested deeper than 1000 levels");
    expect(byName.deep!.kept).toBe(fileBody(TAX.deep, `${"[".repeat(DEPTH)}"x"${"]".repeat(DEPTH)}`).length);
    expect(byName.overflow).toMatchObject({ status: "failed", failed_for_good: true, attempts: 1 });
    expect(byName.overflow!.last_error).toMatch(/SQLSTATE 22003/);
    expect(byName.overflow!.kept).toBe(fileBody(TAX.overflow, "1e200000").length);
    // A NUL is caught before the database: the body is kept, its parse failed with the reason.
    expect(byName.nul).toMatchObject({ status: "fetched", failed_for_good: false, parse_status: "failed" });
    expect(byName.good).toMatchObject({ status: "fetched", parse_status: "parsed" });
  }, 180_000);

  it("is not fetched again by later syncs, which exit 0", async () => {
    const before = { ...served };
    for (let i = 0; i < 2; i++) {
      const again = await runCli(["sync"], env(), 120_000);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain("files fetched 0, failed 0");
    }
    expect(served).toEqual(before);
    const byName = await rows();
    expect(byName.deep).toMatchObject({ attempts: 1, failed_for_good: true });
    expect(byName.overflow).toMatchObject({ attempts: 1, failed_for_good: true });
  }, 240_000);

  it("is listed by status as failed for good, with its reason", async () => {
    const status = await runCli(["status"], env());
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/Change files: .*2 failed for good/);
    expect(status.stdout).toMatch(/failed for good \S+\/files\/deep\.json .*nested deeper than 1000 levels/);
    expect(status.stdout).toMatch(/failed for good \S+\/files\/overflow\.json .*22003/);
    const json = JSON.parse((await runCli(["status", "--json"], env())).stdout);
    expect(json.files.counts.failedForGood).toBe(2);
  });

  it("is tried again by reparse from the kept bytes, without a request", async () => {
    const before = { ...served };
    const reparse = await runCli(["reparse"], env());
    expect(reparse.code).toBe(0);
    expect(reparse.stdout).toContain("2 still failed for good");
    expect(served).toEqual(before);
    const byName = await rows();
    expect(byName.deep).toMatchObject({ status: "failed", failed_for_good: true, attempts: 1 });
  });

  it("is fetched again by backfill --refetch of its days", async () => {
    files = { ...HOSTILE, deep: (tax) => labelled(fileBody(tax, '"Shallow Kft."')) };
    const before = { ...served };
    const refetch = await runCli(["backfill", "--from", DAY, "--to", DAY, "--refetch"], env(), 120_000);
    expect(refetch.code).toBe(0);
    const byName = await rows();
    expect(byName.deep).toMatchObject({ status: "fetched", failed_for_good: false, parse_status: "parsed" });
    expect(served.deep).toBe(before.deep! + 1);
    // The overflowing body is the same again: settled again (its attempts counted afresh).
    expect(served.overflow).toBe(before.overflow! + 1);
    expect(byName.overflow).toMatchObject({ status: "failed", failed_for_good: true, attempts: 1 });
    const [value] = await t.db.sql`select new_value from regwatch.change_values where tax_id = ${TAX.deep}`;
    expect(value?.new_value).toBe("Shallow Kft.");
  }, 180_000);
});

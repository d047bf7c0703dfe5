/**
 * The README's "Trying it by hand" path, step by step as a user types it: an emulator with a list
 * that existed 30 days ago, a backfill that writes its history (and the seeded list's items, which
 * regwatch does not manage), a lookup whose printed registration number is put on a list of one's
 * own, a reconcile that creates that list, and status. The addresses end in /v2 and /v1, as the
 * registry's document gives them (and the emulator prints them); the backfill reads the emulator's
 * description first.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, localDateTime } from "../../src/dates.ts";
import { loadWatchedTaxIds } from "../../src/payments/sql/evidence.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type EmulatorProcess, startEmulatorProcess } from "../helpers/emulator-process.ts";

describe("the README's by-hand path", () => {
  let dir: string;
  let emulator: EmulatorProcess;
  let t: TestDatabase;
  const since = addDays(localDateTime(new Date(), "Europe/Budapest").date, -30);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "regwatch-by-hand-"));
    const lists = path.join(dir, "lists.json");
    await writeFile(lists, JSON.stringify([{ name: "suppliers", createdAt: since, size: 20 }]));
    emulator = await startEmulatorProcess(["--lists", lists]);
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await emulator?.stop();
    await t?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("shows the seeded list's changes, then creates a list of one's own from a lookup", async () => {
    expect(emulator.watchUrl).toBe(`${emulator.url}/v2`);
    expect(emulator.searchUrl).toBe(`${emulator.url}/v1`);
    const env = {
      DATABASE_URL: t.url,
      REGWATCH_WATCH_URL: emulator.watchUrl,
      REGWATCH_SEARCH_URL: emulator.searchUrl,
      REGWATCH_API_KEY: emulator.apiKey,
      REGWATCH_FILE_ORIGINS: emulator.fileOrigins,
      REGWATCH_LOG_LEVEL: "warn",
    };
    const backfill = await runCli(["backfill", "--from", since], env, 120_000);
    expect(backfill.code, backfill.stderr).toBe(0);
    const written = /changes written (\d+)/.exec(backfill.stdout);
    expect(Number(written?.[1])).toBeGreaterThan(0);
    const [described] = await t.db.sql<{ status: string; url: string; from_param: string }[]>`
      select status, url, from_param from regwatch.registry_descriptions`;
    expect(described).toEqual({
      status: "found",
      url: `${emulator.url}/v2/openapi.json`,
      from_param: "start_date",
    });
    // The seeded list is nobody's in desired_lists, yet its 20 businesses are known to be watched:
    // `payments check` reads exactly this, and would otherwise call every supplier not_watched.
    const suppliers = await t.db.sql<{ taxId: string }[]>`
      select i.tax_id as "taxId" from regwatch.watched_items i
      join regwatch.watch_lists l using (list_key) where l.list_name = 'suppliers'`;
    expect(suppliers).toHaveLength(20);
    const ids = suppliers.map((r) => r.taxId);
    expect((await loadWatchedTaxIds(t.db.sql, ids)).sort()).toEqual([...ids].sort());

    const lookup = await runCli(["lookup", "name", "kovács", "--json"], env);
    expect(lookup.code, lookup.stderr).toBe(0);
    const regNumber = /"registration_number":\s*"([^"]+)"/.exec(lookup.stdout)?.[1];
    expect(regNumber).toBeDefined();

    const add = await runCli(["watch", "add", "--list", "prospects", "--reg-number", regNumber!], env);
    expect(add.code, add.stderr).toBe(0);
    const dry = await runCli(["reconcile", "--dry-run"], env);
    expect(dry.code).toBe(2);
    const apply = await runCli(["reconcile"], env);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toMatch(/reconcile run \d+: applied/);
    expect(apply.stdout).toMatch(/\+ list "prospects"/);

    const status = await runCli(["status"], env);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain("suppliers");
    expect(status.stdout).toContain("prospects");
    const changes = await runCli(["changes", "--since", since, "--json"], env);
    expect(changes.code).toBe(0);
    expect((JSON.parse(changes.stdout) as unknown[]).length).toBeGreaterThan(0);
  }, 300_000);
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquireRunLock } from "../../src/run/lock.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  desireList,
  type Harness,
  mutatingRequests,
  outcomes,
  startHarness,
  undesire,
  unknownTaxId,
  watchableTaxIds,
} from "./harness.ts";

let test: TestDatabase;
let harness: Harness;

beforeAll(async () => {
  test = await createTestDatabase();
  harness = await startHarness(test);
});
afterAll(async () => {
  await harness.close();
  await test.drop();
});

describe("regwatch reconcile", () => {
  it("plans with --dry-run (reads only, exit 2), applies, then finds nothing to do", async () => {
    const { emulator, env } = harness;
    const { sql } = test.db;
    const ids = watchableTaxIds(emulator, 40);
    await desireList(sql, "alpha", ids.slice(0, 30));
    await desireList(sql, "beta", [...ids.slice(30, 40), "12345678"]);

    const dry = await runCli(["reconcile", "--dry-run"], env);
    expect(dry.stderr).toBe("");
    expect(dry.code).toBe(2);
    expect(dry.stdout).toContain("changes pending");
    expect(dry.stdout).toMatch(/\+ list "alpha" \(to be created\)\s+\+30 -0/);
    expect(dry.stdout).toContain("… and 20 more to add");
    expect(dry.stdout).toContain("1 invalid tax id(s)");
    expect(emulator.requests().every((r) => r.method === "GET")).toBe(true);
    expect(emulator.requests().length).toBeGreaterThan(0);
    expect(await outcomes(sql)).toEqual([]);
    const runs = await sql<{ kind: string; status: string; stats: Record<string, unknown> }[]>`
      select kind, status, stats from regwatch.runs order by id`;
    expect(runs).toEqual([
      expect.objectContaining({
        kind: "reconcile",
        status: "ok",
        stats: expect.objectContaining({ dryRun: true, toAdd: 40 }),
      }),
    ]);

    const apply = await runCli(["reconcile", "--json"], env);
    expect(apply.code).toBe(0);
    const report = JSON.parse(apply.stdout) as { status: string; stats: Record<string, number> };
    expect(report.status).toBe("applied");
    expect(report.stats).toMatchObject({ added: 40, invalid: 1, created: 2 });

    emulator.resetLog();
    const again = await runCli(["reconcile", "--dry-run"], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("in sync");
    const plain = await runCli(["reconcile"], env);
    expect(plain.code).toBe(0);
    expect(mutatingRequests(emulator)).toEqual([]);
  });

  it("refuses a mass removal with exit 1, saying how to allow it, and sends nothing", async () => {
    const { emulator, env } = harness;
    const { sql } = test.db;
    const ids = watchableTaxIds(emulator, 200).slice(60);
    await desireList(sql, "gamma", ids);
    expect((await runCli(["reconcile"], env)).code).toBe(0);

    await undesire(sql, "gamma", ids.slice(5));
    emulator.resetLog();
    const refused = await runCli(["reconcile"], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--max-removals 135");
    expect(refused.stdout).toContain("refused");
    expect(mutatingRequests(emulator)).toEqual([]);

    const dry = await runCli(["reconcile", "--dry-run", "--max-removals", "135"], env);
    expect(dry.code).toBe(2);
    expect(dry.stdout).toMatch(/~ list "gamma" \(\S+\)\s+\+0 -135/);
    expect(mutatingRequests(emulator)).toEqual([]);

    const allowed = await runCli(["reconcile", "--max-removals", "135"], env);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain("removed 135");
  });

  it("holds back a refused add until --retry-refused sends it again", async () => {
    const { emulator, env } = harness;
    const { sql } = test.db;
    const unknown = unknownTaxId(7);
    const [known] = watchableTaxIds(emulator, 250).slice(240);
    await desireList(sql, "delta", [known!, unknown]);
    const first = await runCli(["reconcile", "--json"], env);
    expect(first.code).toBe(0);
    const refused = (await outcomes(sql)).find((o) => o.taxId === unknown && o.op === "add");
    expect(refused).toMatchObject({ code: 404 });

    const posted = () =>
      mutatingRequests(emulator).filter((r) => r.method === "POST" && r.taxIds?.includes(unknown));
    emulator.resetLog();
    const plain = await runCli(["reconcile", "--json"], env);
    expect(plain.code).toBe(0);
    expect(posted()).toEqual([]);

    const retried = await runCli(["reconcile", "--retry-refused", "--json"], env);
    expect(retried.code).toBe(0);
    expect(posted()).toHaveLength(1);
    expect(mutatingRequests(emulator).flatMap((r) => r.taxIds ?? [])).not.toContain(known);
  });

  it("exits 75 while another process holds the run lock, and 64 on a bad option", async () => {
    const lock = await acquireRunLock(test.db.sql);
    try {
      const held = await runCli(["reconcile", "--dry-run"], harness.env);
      expect(held.code).toBe(75);
      expect(held.stderr).toContain("run lock");
    } finally {
      await lock.release();
    }
    const bad = await runCli(["reconcile", "--max-removals", "many"], harness.env);
    expect(bad.code).toBe(64);
  });
});

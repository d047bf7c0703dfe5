import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, sampleTaxIds, seedList, syncAt } from "../helpers/sync.ts";

const MORNING = "2024-03-10T08:00:00+01:00";

describe("REGWATCH_FETCH_FILES", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;

  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 21,
      businesses: 500,
      now: MORNING,
      frozenClock: true,
      rateLimit: 100,
    });
    const ids = sampleTaxIds(emulator, 6);
    await seedList(emulator, { name: "suppliers", createdAt: "2024-03-01", taxIds: ids });
    // Two known changes: one touching bank accounts, one touching only the name.
    emulator.addChange({
      tax_id: ids[0]!,
      change: "2024-03-05",
      chapter: "2",
      changed_headings: ["bank_accounts"],
    });
    emulator.addChange({
      tax_id: ids[1]!,
      change: "2024-03-06",
      chapter: "2",
      changed_headings: ["long_name"],
    });
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
    await emulator?.close();
  });

  /** Requests for any stored change file's path (the emulator serves files on its own origin). */
  const fileRequests = async () => {
    const paths = (await t.db.sql<{ path: string }[]>`select path from regwatch.change_files`).map(
      (r) => new URL(r.path).pathname,
    );
    return emulator.requests().filter((r) => paths.includes(r.path));
  };

  it("bank_accounts fetches only those files and leaves the rest skipped; all fetches them next time", async () => {
    emulator.resetLog();
    const narrow = await syncAt(
      t.db.sql,
      emulatorConfig(emulator, { REGWATCH_FETCH_FILES: "bank_accounts" }),
      emulator,
    );
    expect(narrow.error).toBeUndefined();
    const files = await t.db.sql<{ path: string; status: string; bank: boolean }[]>`
      select f.path, f.status,
             exists (select 1 from regwatch.changes c where c.path = f.path and 'bank_accounts' = any(c.changed_headings)) as bank
      from regwatch.change_files f order by f.path`;
    const bank = files.filter((f) => f.bank);
    const other = files.filter((f) => !f.bank);
    expect(bank.length).toBeGreaterThan(0);
    expect(other.length).toBeGreaterThan(0);
    expect(bank.every((f) => f.status === "fetched")).toBe(true);
    expect(other.every((f) => f.status === "skipped")).toBe(true);
    // Exactly one request per wanted file, none for the others.
    const asked = (await fileRequests()).map((r) => r.path);
    expect(asked.length).toBe(bank.length);
    for (const f of bank) expect(asked.some((p) => f.path.endsWith(p))).toBe(true);
    expect(narrow.report?.filesSkipped ?? 0).toBe(0);

    emulator.resetLog();
    const wide = await syncAt(t.db.sql, emulatorConfig(emulator), emulator);
    expect(wide.error).toBeUndefined();
    const after = await t.db.sql<{ status: string; n: number }[]>`
      select status, count(*)::int as n from regwatch.change_files group by status`;
    expect(after).toEqual([{ status: "fetched", n: files.length }]);
    expect((await fileRequests()).length).toBe(other.length);
  }, 120_000);
});

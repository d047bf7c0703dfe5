/**
 * The whole path: a sync that leaves a bank_accounts change's file skipped (REGWATCH_FETCH_FILES)
 * makes payments check hold the business's payments as account_change_unverified, naming the
 * day and the policy; once a sync fetches and parses the file, the change no longer holds them
 * for want of values. The emulator's clock is the real one, since payments check judges against
 * today.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, seedList, syncAt } from "../helpers/sync.ts";
import { daysAgo, type JsonReport, writeBatch } from "./fixtures.ts";

let test: TestDatabase;
let emulator: RunningEmulator;
let dir: string;
let payee: { taxId: string; account: string };

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-unverified-sync-"));
  test = await createTestDatabase();
  emulator = await startEmulator({
    seed: 31,
    businesses: 400,
    now: new Date().toISOString(),
    frozenClock: true,
    rateLimit: 100,
    // Only the change the test adds: the real clock moves the window, and a drawn change with it.
    changesPerBusinessPerMonth: 0,
  });
  const record = emulator
    .sampleBusinesses({ type: "companies", limit: 200 })
    .find((r) => r.status_code === 1 && (r.bank_accounts as unknown[]).length > 0)!;
  payee = {
    taxId: String(record.tax_number).slice(0, 8),
    account: (record.bank_accounts as Array<{ bank_account: string }>)[0]!.bank_account,
  };
  await seedList(emulator, { name: "suppliers", createdAt: daysAgo(20), taxIds: [payee.taxId] });
  emulator.addChange({
    tax_id: payee.taxId,
    change: daysAgo(2),
    chapter: "2",
    changed_headings: ["bank_accounts"],
  });
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  await test?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it("holds a payment while a recent bank_accounts change's file is skipped, and not once it is parsed", async () => {
  const skipping = await syncAt(
    test.db.sql,
    emulatorConfig(emulator, { REGWATCH_FETCH_FILES: "none" }),
    emulator,
  );
  expect(skipping.error).toBeUndefined();
  const env = {
    DATABASE_URL: test.url,
    REGWATCH_SEARCH_URL: emulator.url,
    REGWATCH_API_KEY: emulator.apiKey,
  };
  // Known and watched: before, this payment passed as ok.
  const lookup = await runCli(["lookup", "bank-account", payee.account], env);
  expect(lookup.code, lookup.stderr).toBe(0);
  const file = await writeBatch(dir, "batch.csv", ["tax_id,bank_account", `${payee.taxId},${payee.account}`]);
  const held = await runCli(["payments", "check", file, "--json"], env);
  expect(held.stderr).toBe("");
  expect(held.code).toBe(2);
  const [row] = (JSON.parse(held.stdout) as JsonReport).rows;
  expect(row!.verdict).toBe("account_change_unverified");
  expect(row!.detail).toContain(
    `the bank_accounts change of ${daysAgo(2)} is not verified: its change file is left out by REGWATCH_FETCH_FILES`,
  );
  expect(row!.next_step).toContain("Add bank_accounts to REGWATCH_FETCH_FILES");

  const fetching = await syncAt(test.db.sql, emulatorConfig(emulator), emulator);
  expect(fetching.error).toBeUndefined();
  const [state] = await test.db.sql<{ status: string; parse_status: string }[]>`
    select f.status, f.parse_status from regwatch.change_files f
    join regwatch.changes c on c.path = f.path
    where c.tax_id = ${payee.taxId} and c.change_date = ${daysAgo(2)}`;
  expect(state).toEqual({ status: "fetched", parse_status: "parsed" });
  const after = await runCli(["payments", "check", file, "--json"], env);
  const [known] = (JSON.parse(after.stdout) as JsonReport).rows;
  expect(known!.verdict).not.toBe("account_change_unverified");
  expect(known!.detail).not.toContain("not verified");
  expect(after.stdout).not.toContain("REGWATCH_FETCH_FILES");
});

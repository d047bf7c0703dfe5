/**
 * `payments check --online` re-reads a payee whose newest record is older than
 * REGWATCH_PAYMENT_RECHECK_DAYS (by registration number, so the answer is the payee's own full
 * record), within the search quota; an account a newer record is the first to list counts as
 * added the day it was read. Before, --online asked only about accounts no local source knew, so
 * a stale record passed, and a new account of a known payee never counted as new. Against the
 * emulator; the stale records are seeded as a lookup long ago would have left them.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  account,
  daysAgo,
  type JsonReport,
  seedRecord,
  taxBase,
  today,
  watch,
  writeBatch,
} from "./fixtures.ts";

interface Company {
  taxId: string;
  regNumber: string;
  accounts: string[];
}

let test: TestDatabase;
let emulator: RunningEmulator;
let env: Record<string, string>;
let dir: string;
let companies: Company[];

/** An account none of the emulator's businesses holds. */
const STALE = account(777_001);

const searches = () =>
  emulator.requests().filter((r) => r.path === "/v1/reg-numbers" || r.path === "/v1/bank-accounts");

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-recheck-"));
  test = await createTestDatabase();
  emulator = await startEmulator({
    seed: 12,
    businesses: 2000,
    now: "2024-03-01T08:00:00Z",
    frozenClock: true,
  });
  env = { DATABASE_URL: test.url, REGWATCH_SEARCH_URL: emulator.url, REGWATCH_API_KEY: emulator.apiKey };
  companies = emulator
    .sampleBusinesses({ type: "companies", limit: 300 })
    .filter((r) => r.status_code === 1 && (r.bank_accounts as unknown[]).length > 0)
    .slice(0, 4)
    .map((r) => ({
      taxId: String(r.tax_number).slice(0, 8),
      regNumber: String(r.registration_number),
      accounts: (r.bank_accounts as Array<{ bank_account: string }>).map((a) => a.bank_account),
    }));
  expect(companies).toHaveLength(4);
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  await test?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  emulator.resetLog();
  await test.db.sql`truncate regwatch.api_usage`;
});

describe("payments check --online re-reads stale payees", () => {
  it("re-reads a payee whose record is older than the re-check age by its registration number", async () => {
    const c = companies[0]!;
    // What a lookup 60 days ago kept: an account the business no longer lists.
    await seedRecord(test.db.sql, c.taxId, [STALE], daysAgo(60), { registration_number: c.regNumber });
    await watch(test.db.sql, "k1", c.taxId);
    const file = await writeBatch(dir, "stale.csv", [
      "tax_id,bank_account",
      `${c.taxId},${STALE}`,
      `${c.taxId},${c.accounts[0]}`,
    ]);
    const offline = await runCli(["payments", "check", file, "--json"], env);
    expect((JSON.parse(offline.stdout) as JsonReport).rows.map((r) => r.verdict)).toEqual([
      "ok",
      "account_not_registered",
    ]);

    const result = await runCli(["payments", "check", file, "--online", "--json"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stdout) as JsonReport;
    // One request answers for both rows: the payee's own record, read today.
    expect(searches().map((r) => [r.path, r.query.value])).toEqual([["/v1/reg-numbers", c.regNumber]]);
    expect(report.online).toEqual({ asked: 1, notChecked: 0 });
    expect(report.rows.map((r) => r.verdict)).toEqual(["account_removed", "account_recently_changed"]);
    expect(report.rows[0]!.detail).toContain(
      `this business removed this account on ${today}: do not pay it; confirm the new account`,
    );
    expect(report.rows[1]!.detail).toContain(
      `the account was added on ${today} (a search record read that day`,
    );
    expect(report.rows[1]!.next_step).toContain("confirm the account with the supplier by phone");

    // Fresh now: the next run asks nothing and the new account keeps its day.
    emulator.resetLog();
    const again = await runCli(["payments", "check", file, "--online", "--json"], env);
    expect(searches()).toEqual([]);
    expect((JSON.parse(again.stdout) as JsonReport).rows[1]!.detail).toContain(`added on ${today}`);
  });

  it("asks by the row's account when no registration number is known, and honours the age", async () => {
    const c = companies[1]!;
    await seedRecord(test.db.sql, c.taxId, c.accounts, daysAgo(10));
    await watch(test.db.sql, "k1", c.taxId);
    const file = await writeBatch(dir, "age.csv", ["tax_id,bank_account", `${c.taxId},${c.accounts[0]}`]);
    const fresh = await runCli(["payments", "check", file, "--online", "--json"], env);
    expect(fresh.code).toBe(0);
    expect(searches()).toEqual([]);

    const strict = { ...env, REGWATCH_PAYMENT_RECHECK_DAYS: "7" };
    const result = await runCli(["payments", "check", file, "--online", "--json"], strict);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(searches().map((r) => [r.path, r.query.value])).toEqual([["/v1/bank-accounts", c.accounts[0]]]);
    expect((JSON.parse(result.stdout) as JsonReport).rows[0]!.verdict).toBe("ok");
  });

  it("says which stale payees it could not re-read once the quota is spent", async () => {
    const [c, d] = [companies[2]!, companies[3]!];
    for (const x of [c, d]) {
      await seedRecord(test.db.sql, x.taxId, x.accounts, daysAgo(45), { registration_number: x.regNumber });
      await watch(test.db.sql, "k1", x.taxId);
    }
    await test.db.sql`
      insert into regwatch.api_usage (day, api, endpoint, requests, errors)
      values (${today}, 'search', 'GET /v1/names', 9, 0)`;
    const file = await writeBatch(dir, "quota.csv", [
      "tax_id,bank_account",
      `${c.taxId},${c.accounts[0]}`,
      `${d.taxId},${d.accounts[0]}`,
    ]);
    const result = await runCli(["payments", "check", file, "--online", "--json"], {
      ...env,
      REGWATCH_SEARCH_MONTHLY_QUOTA: "10",
    });
    expect(result.stderr).toContain("monthly search quota is used up");
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.online).toEqual({ asked: 1, notChecked: 1 });
    expect(report.rows.map((r) => r.verdict)).toEqual(["ok", "ok"]);
    expect(report.rows[0]!.detail).toBe("");
    expect(report.rows[1]!.detail).toBe(
      `not checked online: the monthly search quota is used up (its newest record was read on ${daysAgo(45)}, more than 30 day(s) ago)`,
    );
  });

  it("re-reads a payee whose unverified old change is newer than its record, which settles it", async () => {
    const taxId = taxBase(3_100_000);
    const own = account(3100);
    await seedRecord(test.db.sql, taxId, [own], daysAgo(100));
    await watch(test.db.sql, "k1", taxId);
    await test.db.sql`
      insert into regwatch.changes (tax_id, change_date, chapter, path, changed_headings, raw, first_seen_at)
      values (${taxId}, ${daysAgo(60)}, '2', 'https://files.example/old.json', '{bank_accounts}', '{}',
              ${`${daysAgo(59)}T08:00:00Z`})`;
    const file = await writeBatch(dir, "old-change.csv", ["tax_id,bank_account", `${taxId},${own}`]);
    const held = await runCli(["payments", "check", file, "--json", "--online"], env);
    expect(held.code).toBe(2);
    // Not in the emulator's data: the account is asked, nothing comes back, and the change still holds.
    expect(searches().map((r) => r.path)).toEqual(["/v1/bank-accounts"]);
    const [row] = (JSON.parse(held.stdout) as JsonReport).rows;
    expect(row!.verdict).toBe("account_change_unverified");
    expect(row!.next_step).toContain("`regwatch lookup reg-number ...`");

    // A record read after the change settles it.
    await seedRecord(test.db.sql, taxId, [own], today);
    const settled = await runCli(["payments", "check", file, "--json"], env);
    expect(settled.code).toBe(0);
  });
});

describe("watch lists", () => {
  it("counts a business on a remote list regwatch does not manage as watched", async () => {
    const taxId = taxBase(3_200_000);
    const own = account(3200);
    await seedRecord(test.db.sql, taxId, [own], today);
    // A remote list nobody in regwatch asked for (no desired_lists row), its items stored by sync.
    await watch(test.db.sql, "unmanaged", taxId);
    const [desired] = await test.db.sql<
      { n: number }[]
    >`select count(*)::int as n from regwatch.desired_lists`;
    expect(desired?.n).toBe(0);
    const file = await writeBatch(dir, "unmanaged.csv", ["tax_id,bank_account", `${taxId},${own}`]);
    const result = await runCli(["payments", "check", file, "--json"], env);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as JsonReport).rows[0]!.verdict).toBe("ok");
  });
});

/**
 * Issue 35, points 3 and 4, through the product's own paths (the emulator over HTTP, a sync, a
 * lookup, `payments check` and `payments verify`): a payment to an account no source has ever
 * shown is held as account_unconfirmed (released by a verification, or passed with a warning when
 * the installation accepts the risk), and a payment to an account its business replaced is named
 * as removed, with the day, even when the file gives no tax number.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, seedList, syncAt } from "../helpers/sync.ts";
import { account, daysAgo, type JsonReport, writeBatch } from "./fixtures.ts";

let test: TestDatabase;
let emulator: RunningEmulator;
let dir: string;
let env: Record<string, string>;
let sole: { taxId: string; regNumber: string };
let company: { taxId: string; old: string; replacement: string };
const NEVER_SEEN = account(880_011);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-unconfirmed-"));
  test = await createTestDatabase();
  emulator = await startEmulator({
    seed: 36,
    businesses: 400,
    now: new Date().toISOString(),
    frozenClock: true,
    rateLimit: 100,
    changesPerBusinessPerMonth: 0,
  });
  const proprietor = emulator
    .sampleBusinesses({ type: "self_employed", limit: 200 })
    .find((r) => r.status_code === 1)!;
  sole = {
    taxId: String(proprietor.tax_number).slice(0, 8),
    regNumber: String(proprietor.registration_number),
  };
  const firm = emulator
    .sampleBusinesses({ type: "companies", limit: 200 })
    .find((r) => r.status_code === 1 && (r.bank_accounts as unknown[]).length > 0)!;
  company = {
    taxId: String(firm.tax_number).slice(0, 8),
    old: (firm.bank_accounts as Array<{ bank_account: string }>)[0]!.bank_account,
    replacement: account(880_022),
  };
  await seedList(emulator, {
    name: "suppliers",
    createdAt: daysAgo(40),
    taxIds: [sole.taxId, company.taxId],
  });
  // The company replaced its account the day before yesterday.
  emulator.addChange({
    tax_id: company.taxId,
    change: daysAgo(2),
    chapter: "finance",
    file: "own",
    values: [
      {
        heading: "bank_accounts",
        old_value: [{ bank_account: company.old }],
        new_value: [{ bank_account: company.replacement }],
      },
    ],
  });
  const synced = await syncAt(test.db.sql, emulatorConfig(emulator), emulator);
  expect(synced.error).toBeUndefined();
  env = { DATABASE_URL: test.url, REGWATCH_SEARCH_URL: emulator.url, REGWATCH_API_KEY: emulator.apiKey };
  // The sole proprietor is known by its search record, which lists no accounts.
  const lookup = await runCli(["lookup", "reg-number", sole.regNumber], env);
  expect(lookup.code, lookup.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  await test?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function check(lines: string[], extra: Record<string, string> = {}) {
  const file = await writeBatch(dir, "batch.csv", lines);
  const result = await runCli(["payments", "check", file, "--json"], { ...env, ...extra });
  expect(result.stderr).toBe("");
  return { code: result.code, rows: (JSON.parse(result.stdout) as JsonReport).rows };
}

describe("an account no source has ever shown", () => {
  it("is held as account_unconfirmed, passed with a warning when accepted, and released by payments verify", async () => {
    const batch = ["tax_id,bank_account", `${sole.taxId},${NEVER_SEEN}`];
    const held = await check(batch);
    expect(held.code).toBe(2);
    expect(held.rows[0]).toMatchObject({ verdict: "account_unconfirmed" });
    expect(held.rows[0]!.detail).toContain("has ever shown this account");
    expect(held.rows[0]!.next_step).toContain(`regwatch payments verify ${NEVER_SEEN}`);

    const accepted = await check(batch, { REGWATCH_PAYMENT_ACCEPT_UNCONFIRMED: "true" });
    expect(accepted.code).toBe(0);
    expect(accepted.rows[0]).toMatchObject({ verdict: "ok" });
    expect(accepted.rows[0]!.detail).toContain("warning: no source regwatch has");
    expect(accepted.rows[0]!.detail).toContain("REGWATCH_PAYMENT_ACCEPT_UNCONFIRMED");

    const verified = await runCli(
      ["payments", "verify", NEVER_SEEN, "--tax-id", sole.taxId, "--by", "Kiss Anna", "--note", "called"],
      env,
    );
    expect(verified.code, verified.stderr).toBe(0);
    const released = await check(batch);
    expect(released.code).toBe(0);
    expect(released.rows[0]).toMatchObject({ verdict: "ok" });
    expect(released.rows[0]!.detail).toContain("verified by Kiss Anna");
  });
});

describe("an account the business removed", () => {
  it("is named as removed, with the day, whether or not the file gives a tax number", async () => {
    const { code, rows } = await check([
      "tax_id,bank_account",
      `,${company.old}`,
      `${company.taxId},${company.old}`,
    ]);
    expect(code).toBe(2);
    for (const row of rows) {
      expect(row.verdict).toBe("account_removed");
      expect(row.detail).toContain(
        `this business removed this account on ${daysAgo(2)}: do not pay it; confirm the new account`,
      );
      expect(row.next_step).toContain("Do not pay this account: the business removed it");
    }
    expect(rows[0]!.detail).toContain(`the account was registered to ${company.taxId}`);
  });
});

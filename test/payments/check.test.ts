/**
 * `regwatch payments check` as a subprocess against the emulator and a real Postgres. What is
 * known locally is filled through the paths that exist: `lookup` stores search records in
 * businesses; change values and profiles are inserted in the shape the change-file parser writes.
 */
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addDays, localDateTime } from "../../src/dates.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { ibanOf } from "../../src/payments/accounts.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

interface Company {
  taxId: string;
  name: string;
  accounts: string[];
  status: number;
}

interface JsonReport {
  flagged: boolean;
  counts: Record<string, number>;
  online: { asked: number; notChecked: number } | null;
  rows: Array<{ line: number; verdict: string; detail: string; name: string | null; amount: string | null }>;
}

let test: TestDatabase;
let emulator: RunningEmulator;
let env: Record<string, string>;
let dir: string;
let operating: Company[];
let ceased: Company;
const today = localDateTime(new Date(), "Europe/Budapest").date;

function company(record: Record<string, unknown>): Company {
  return {
    taxId: String(record.tax_id),
    name: String(record.full_name),
    accounts: (record.bank_accounts as Array<{ bank_account: string }>).map((a) => a.bank_account),
    status: Number(record.status_code),
  };
}

/** Flips one digit of the account part, so its check digit no longer holds. */
function withBadCheckDigit(account: string): string {
  const i = 12;
  return account.slice(0, i) + String((Number(account[i]) + 1) % 10) + account.slice(i + 1);
}

async function batch(name: string, lines: string[]): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, `${lines.join("\n")}\n`);
  return file;
}

const searches = () => emulator.requests().filter((r) => r.path === "/v1/bank-accounts");

async function lookup(c: Company): Promise<void> {
  const result = await runCli(["lookup", "bank-account", c.accounts[0]!], env);
  expect(result.code, result.stderr).toBe(0);
}

async function watch(...taxIds: string[]): Promise<void> {
  await test.db.sql`
    insert into regwatch.watch_lists (list_key, list_name) values ('k1', 'suppliers') on conflict do nothing`;
  for (const taxId of taxIds) {
    await test.db.sql`insert into regwatch.watched_items (list_key, tax_id) values ('k1', ${taxId})`;
  }
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-payments-"));
  test = await createTestDatabase();
  emulator = await startEmulator({
    seed: 11,
    businesses: 3000,
    now: "2024-03-01T08:00:00Z",
    frozenClock: true,
  });
  env = { DATABASE_URL: test.url, REGWATCH_SEARCH_URL: emulator.url, REGWATCH_API_KEY: emulator.apiKey };
  const companies = emulator.sampleBusinesses({ type: "companies", limit: 400 }).map(company);
  operating = companies.filter((c) => c.status === 1).slice(0, 8);
  ceased = companies.find((c) => c.status === 0)!;
  expect(operating).toHaveLength(8);
  expect(ceased).toBeDefined();
  // Known locally: the first four operating companies and the ceased one.
  await Promise.all([...operating.slice(0, 4), ceased].map(lookup));
  const [a, b, c] = operating;
  await watch(a!.taxId, b!.taxId, c!.taxId, ceased.taxId);
  // c's current account arrived by a change five days ago, replacing an older one.
  const older = "11700000-00000000-00000000";
  await test.db.sql`
    insert into regwatch.change_values (change_id, heading, tax_id, change_date, old_value, new_value, path)
    values (1, 'bank_accounts', ${c!.taxId}, ${addDays(today, -5)},
            ${test.db.sql.json([{ bank_account: older }])},
            ${test.db.sql.json(c!.accounts.map((bank_account) => ({ bank_account })))},
            'https://files.example/c.json')`;
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  await test?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  emulator.resetLog();
  await test.db.sql`truncate regwatch.api_usage, regwatch.payment_checks, regwatch.payment_batches`;
});

describe("payments check", () => {
  it("gives the seven verdicts of a mixed batch and exits 2", async () => {
    const [a, b, c, d] = operating as [Company, Company, Company, Company];
    const file = await batch("mixed.csv", [
      "tax_id;bank_account;amount;currency;reference;name",
      `${a.taxId};${a.accounts[0]};"1 000,50";HUF;INV-1;${a.name}`,
      `${b.taxId};${a.accounts[0]};200;HUF;INV-2;${b.name}`,
      `${c.taxId};${c.accounts[0]!.replace(/-/g, "")};300;HUF;INV-3;${c.name}`,
      `${a.taxId};${withBadCheckDigit(a.accounts[0]!)};400;HUF;INV-4;${a.name}`,
      `${ceased.taxId};${ceased.accounts[0]};500;HUF;INV-5;${ceased.name}`,
      `12345676;11773016-11111018;600;HUF;INV-6;Nobody`,
      `${d.taxId};${ibanOf(d.accounts[0]!.replace(/-/g, ""))};700;EUR;INV-7;${d.name}`,
    ]);
    const result = await runCli(["payments", "check", file, "--json"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.rows.map((r) => [r.line, r.verdict])).toEqual([
      [2, "ok"],
      [3, "account_not_registered"],
      [4, "account_recently_changed"],
      [5, "invalid_account"],
      [6, "business_ceased"],
      [7, "unknown_business"],
      [8, "not_watched"],
    ]);
    expect(report.rows[1]!.detail).toContain(`registered to ${a.taxId}`);
    expect(report.rows[2]!.detail).toContain(`added on ${addDays(today, -5)}`);
    expect(report.rows[3]!.detail).toContain("wrong check digit in its account part");
    expect(report.rows[0]).toMatchObject({ name: a.name, amount: "1000.5", amount_raw: "1 000,50" });
    expect(searches()).toEqual([]);
    // Nothing of the batch is kept without --record.
    const [kept] = await test.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.payment_checks`;
    expect(kept?.n).toBe(0);

    const text = await runCli(["payments", "check", file], env);
    expect(text.code).toBe(2);
    const lines = text.stdout.split("\n");
    expect(lines[0]).toBe(
      'read as utf-8 (detected), separated by ";"; columns: tax_id = "tax_id", bank_account = "bank_account", ' +
        'amount = "amount", currency = "currency", reference = "reference", name = "name"',
    );
    expect(lines[1]).toMatch(/^VERDICT\s+LINE\s+TAX ID/);
    expect(lines[2]).toMatch(/^invalid_account\s+5\s/);
    expect(lines[3]).toMatch(/^business_ceased\s+6\s/);
    expect(text.stdout).toContain("7 row(s): 1 invalid_account, 1 business_ceased");
    // Exact sums in the currency's decimals, grouped by thousands.
    expect(text.stdout).toContain("total 3 000.50 HUF in 6 row(s); held: 2 000.00 HUF in 5 row(s)\n");
    expect(text.stdout).toContain("total 700.00 EUR in 1 row(s)\n");
    expect(text.stdout).toContain("HOLD: 5 payment(s) flagged");
  });

  it("passes the good rows (exit 0), and a shorter hold lets the changed account through", async () => {
    const [a, , c, d] = operating as [Company, Company, Company, Company];
    const file = await batch("good.csv", [
      "tax_number,bank_account,amount",
      `${a.taxId}-2-41,${a.accounts[0]},10`,
      `${c.taxId},${c.accounts[0]},20`,
      `${d.taxId},${ibanOf(d.accounts[0]!.replace(/-/g, "")).replace(/(.{4})/g, "$1 ")},30`,
    ]);
    const held = await runCli(["payments", "check", file, "--csv"], env);
    expect(held.code).toBe(2);
    expect(held.stdout.split("\n")[2]).toMatch(/^3,account_recently_changed,/);
    expect(held.stdout.split("\n")[0]).toBe(
      "line,verdict,detail,tax_id,bank_account,account,registry_name,name,amount,currency,reference,next_step," +
        "tax_base,payee_found_by,amount_raw,verified_by,verified_on",
    );

    const result = await runCli(["payments", "check", file, "--hold-days", "3", "--csv"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const verdicts = result.stdout
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(",")[1]);
    expect(verdicts).toEqual(["ok", "ok", "not_watched"]);
  });

  it("exits 64 naming every bad line and checks nothing", async () => {
    const [a] = operating as [Company];
    const file = await batch("bad.csv", [
      "\uFEFFtax_id,bank_account,amount,currency",
      `${a.taxId},${a.accounts[0]},10,HUF`,
      `${a.taxId},,10,HUF`,
      `${a.taxId},${a.accounts[0]},"1.250",EUR`,
      `${a.taxId},${a.accounts[0]},10,HUF,extra`,
    ]);
    const xlsx = path.join(dir, "bad.xlsx");
    const result = await runCli(["payments", "check", file, "--online", "--record", "--xlsx", xlsx], env);
    expect(result.code).toBe(64);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`${file}: line 3: no bank account`);
    expect(result.stderr).toContain(`${file}: line 4: amount "1.250" is ambiguous in EUR`);
    expect(result.stderr).toContain(`${file}: line 5: 5 field(s), but the header names 4 columns`);
    // A file refused as a whole leaves no workbook behind.
    await expect(stat(xlsx)).rejects.toThrow();
    expect(result.stderr).not.toContain("line 2:");
    expect(result.stderr).toContain("no payment was checked");
    expect(emulator.requests()).toEqual([]);
    const [kept] = await test.db.sql<{ n: number }[]>`
      select (select count(*) from regwatch.payment_checks) + (select count(*) from regwatch.payment_batches) as n`;
    expect(Number(kept?.n)).toBe(0);

    const missing = await runCli(["payments", "check", path.join(dir, "nope.csv")], env);
    expect(missing.code).toBe(64);
    expect(missing.stderr).toContain("no such file");
  });

  it("names the business that holds an account even when it is not in the batch", async () => {
    const [a, b] = operating as [Company, Company];
    const file = await batch("holder.csv", ["tax_id,bank_account", `${b.taxId},${a.accounts[0]}`]);
    const result = await runCli(["payments", "check", file, "--json"], env);
    expect(result.code).toBe(2);
    const [row] = (JSON.parse(result.stdout) as JsonReport).rows;
    expect(row).toMatchObject({ verdict: "account_not_registered" });
    expect(row?.detail).toBe(`the account is registered to ${a.taxId} (${a.name})`);
  });

  it("keeps the verdicts with --record, and nothing else of the batch", async () => {
    const [a, b] = operating as [Company, Company];
    const file = await batch("record.csv", [
      "tax_id,bank_account,reference",
      `${a.taxId},${a.accounts[0]},R1`,
      `${b.taxId},${a.accounts[0]},R2`,
    ]);
    const result = await runCli(["payments", "check", file, "--record"], env);
    expect(result.code).toBe(2);
    const batchId = /recorded as batch (\S+)/.exec(result.stdout)?.[1];
    const rows = await test.db.sql<{ batch_id: string; line: number; verdict: string; reference: string }[]>`
      select batch_id, line, verdict, reference from regwatch.payment_checks order by line`;
    expect(rows).toEqual([
      { batch_id: batchId, line: 2, verdict: "ok", reference: "R1" },
      { batch_id: batchId, line: 3, verdict: "account_not_registered", reference: "R2" },
    ]);
    const [kept] = await test.db.sql`
      select checked_by, source, file_name, encoding, delimiter, checked_on::text, hold_days, row_count, held_count,
             totals, finished_at is not null as finished
      from regwatch.payment_batches where id = ${batchId!}`;
    expect(kept).toEqual({
      checked_by: userInfo().username,
      source: "cli",
      file_name: "record.csv",
      encoding: "utf-8",
      delimiter: ",",
      checked_on: today,
      hold_days: 30,
      row_count: 2,
      held_count: 1,
      totals: [],
      finished: true,
    });
  });
});

describe("payments check --online", () => {
  async function usage(): Promise<number> {
    const [row] = await test.db.sql<{ n: number }[]>`
      select coalesce(sum(requests), 0)::int as n from regwatch.api_usage
      where api = 'search' and endpoint = 'GET /v1/bank-accounts'`;
    return row?.n ?? 0;
  }

  it("confirms an account nothing local knows through the search interface and counts the request", async () => {
    const e = operating[4]!;
    await test.db.sql`delete from regwatch.businesses where tax_id = ${e.taxId}`;
    const file = await batch("online.csv", ["tax_id,bank_account", `${e.taxId},${e.accounts[0]}`]);
    const offline = await runCli(["payments", "check", file, "--json"], env);
    expect(offline.code).toBe(2);
    expect((JSON.parse(offline.stdout) as JsonReport).rows[0]!.verdict).toBe("unknown_business");
    expect(searches()).toEqual([]);

    const result = await runCli(["payments", "check", file, "--online", "--json"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.rows[0]!.verdict).toBe("not_watched");
    expect(report.online).toEqual({ asked: 1, notChecked: 0 });
    expect(searches().map((r) => [r.query.value, r.status])).toEqual([[e.accounts[0], 200]]);
    expect(await usage()).toBe(1);

    // Known now (the record was kept): a second run asks nothing.
    emulator.resetLog();
    const again = await runCli(["payments", "check", file, "--online", "--json"], env);
    expect(again.code).toBe(0);
    expect(searches()).toEqual([]);
  });

  it("stops asking before the quota is exceeded and says which rows it could not check", async () => {
    const [f, g, h] = operating.slice(5, 8) as [Company, Company, Company];
    await test.db.sql`
      insert into regwatch.api_usage (day, api, endpoint, requests, errors)
      values (${today}, 'search', 'GET /v1/names', 8, 0)`;
    const file = await batch("quota.csv", [
      "tax_id,bank_account",
      `${f.taxId},${f.accounts[0]}`,
      `${g.taxId},${g.accounts[0]}`,
      `${h.taxId},${h.accounts[0]}`,
    ]);
    const limited = { ...env, REGWATCH_SEARCH_MONTHLY_QUOTA: "10" };
    const result = await runCli(["payments", "check", file, "--online", "--json"], limited);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("monthly search quota is used up");
    expect(result.stderr).toContain("REGWATCH_SEARCH_MONTHLY_QUOTA is 10");
    const report = JSON.parse(result.stdout) as JsonReport;
    expect(report.online).toEqual({ asked: 2, notChecked: 1 });
    expect(report.rows.map((r) => r.verdict)).toEqual(["not_watched", "not_watched", "unknown_business"]);
    expect(report.rows[2]!.detail).toContain("not checked online: the monthly search quota is used up");
    expect(searches()).toHaveLength(2);
    expect(await usage()).toBe(2);
  });
});

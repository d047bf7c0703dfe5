/**
 * A bank_accounts change whose values regwatch does not have holds every payment to that business
 * (account_change_unverified), whatever the reason: its file not fetched (pending, failed,
 * refused, skipped by REGWATCH_FETCH_FILES, no file row), not parsed, unrecognised, unreadable,
 * unattributed, parsed without a value for it, a null new value, or an ambiguous same-day order.
 * Before, each of these rows passed as ok. Seeded as sync and the parser write them.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../src/dates.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  account,
  accountList,
  daysAgo,
  type JsonReport,
  type SeededChange,
  seedChange,
  seedRecord,
  taxBase,
  watch,
  writeBatch,
} from "./fixtures.ts";

let test: TestDatabase;
let dir: string;
let env: Record<string, string>;

const RECENT = daysAgo(2);
/** Stands for the payee's own account in a case's values. */
const OWN = "own-account";

/** One payee per case: its change (if any) and the verdict its payment must get. */
interface Case {
  name: string;
  change?: Omit<SeededChange, "taxId">;
  extra?: Array<Omit<SeededChange, "taxId">>;
  readOn?: string;
  verdict: string;
  detail?: string;
  step?: string;
}

const held = (status: string, parseStatus: string | null = null) => ({
  day: RECENT,
  file: { status, parseStatus },
});

const CASES: Case[] = [
  {
    name: "skipped",
    change: held("skipped"),
    verdict: "account_change_unverified",
    detail: "its change file is left out by REGWATCH_FETCH_FILES",
    step: "Add bank_accounts to REGWATCH_FETCH_FILES",
  },
  {
    name: "pending",
    change: held("pending"),
    verdict: "account_change_unverified",
    detail: "its change file has not been fetched yet",
    step: "Run `regwatch sync` to fetch the change file",
  },
  {
    name: "failed",
    change: { day: RECENT, file: { status: "failed", lastError: "HTTP 503 from the file server" } },
    verdict: "account_change_unverified",
    detail: "fetching its change file failed: HTTP 503 from the file server",
    step: "`regwatch status` shows why it failed",
  },
  {
    name: "refused",
    change: held("refused"),
    verdict: "account_change_unverified",
    detail: "outside REGWATCH_FILE_ORIGINS",
    step: "REGWATCH_FILE_ORIGINS",
  },
  {
    name: "not parsed",
    change: held("fetched"),
    verdict: "account_change_unverified",
    detail: "its change file has not been parsed yet",
    step: "regwatch reparse",
  },
  {
    name: "unrecognised",
    change: held("fetched", "unrecognised"),
    verdict: "account_change_unverified",
    detail: "its change file's format is not recognised",
    step: "regwatch cannot learn the new accounts from the change file",
  },
  {
    name: "parse failed",
    change: {
      day: RECENT,
      file: { status: "fetched", parseStatus: "failed", parseError: "unsupported Unicode escape sequence" },
    },
    verdict: "account_change_unverified",
    detail: "its change file could not be read: unsupported Unicode escape sequence",
  },
  {
    name: "unattributed",
    change: held("fetched", "unattributed"),
    verdict: "account_change_unverified",
    detail: "could not be given to this business",
  },
  {
    name: "parsed without its value",
    change: held("fetched", "parsed"),
    verdict: "account_change_unverified",
    detail: "gives no bank_accounts value for this change",
  },
  {
    name: "null new value",
    change: { ...held("fetched", "parsed"), value: { old: null, new: null } },
    verdict: "account_change_unverified",
    detail: "gives no new bank_accounts value",
  },
  {
    // Two changes of the day, neither the other's continuation: either may be the last.
    name: "ambiguous order",
    change: {
      ...held("fetched", "parsed"),
      value: { old: accountList(OWN, account(9001)), new: accountList(OWN), ambiguous: true },
    },
    extra: [
      {
        ...held("fetched", "parsed"),
        chapter: "3",
        value: { old: accountList(account(9002)), new: accountList(account(9003)), ambiguous: true },
      },
    ],
    verdict: "account_change_unverified",
    detail: "no chain of old and new values decides the order",
  },
  {
    name: "no file row",
    change: { day: RECENT },
    verdict: "account_change_unverified",
    detail: "no change file is recorded for it",
  },
  // Controls: known values, another heading, and an old change a later record supersedes.
  {
    name: "known values",
    change: { ...held("fetched", "parsed"), value: { old: [], new: [] } },
    verdict: "ok",
  },
  { name: "other heading", change: { ...held("skipped"), headings: ["long_name"] }, verdict: "ok" },
  {
    name: "old, superseded by a later record",
    change: { day: daysAgo(60), file: { status: "failed" }, firstSeenAt: `${daysAgo(59)}T08:00:00Z` },
    readOn: daysAgo(10),
    verdict: "ok",
  },
  {
    name: "old, superseded by a later change with values",
    change: { day: daysAgo(60), file: { status: "failed" }, firstSeenAt: `${daysAgo(59)}T08:00:00Z` },
    extra: [
      { day: daysAgo(40), file: { status: "fetched", parseStatus: "parsed" }, value: { old: [], new: [] } },
    ],
    readOn: daysAgo(100),
    verdict: "ok",
  },
  {
    name: "old, nothing read since",
    change: { day: daysAgo(60), file: { status: "failed" }, firstSeenAt: `${daysAgo(59)}T08:00:00Z` },
    readOn: daysAgo(100),
    verdict: "account_change_unverified",
    detail: "no search record read since, nor a later change, says which accounts hold",
    step: "check again with --online",
  },
];

beforeAll(async () => {
  test = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-unverified-"));
  env = { DATABASE_URL: test.url };
}, 60_000);

afterAll(async () => {
  await test?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("a bank_accounts change whose values are unknown", () => {
  it("holds each payment to its business with account_change_unverified, naming the date and why", async () => {
    const lines = ["tax_id,bank_account,amount"];
    for (const [i, c] of CASES.entries()) {
      const taxId = taxBase(2_000_000 + i);
      const own = account(1000 + i);
      // Each record lists the account; a value row that names no account keeps it (adds nothing).
      const values = (v: SeededChange["value"]): SeededChange["value"] => {
        if (!v || v.new === null) return v;
        if (v.ambiguous) return JSON.parse(JSON.stringify(v).replaceAll(OWN, own));
        return { ...v, old: accountList(own), new: accountList(own) };
      };
      await seedRecord(test.db.sql, taxId, [own], c.readOn ?? daysAgo(10));
      await watch(test.db.sql, "k1", taxId);
      for (const change of [c.change, ...(c.extra ?? [])]) {
        if (change) await seedChange(test.db.sql, { ...change, taxId, value: values(change.value) });
      }
      lines.push(`${taxId},${own},100`);
    }
    const file = await writeBatch(dir, "cases.csv", lines);
    const result = await runCli(["payments", "check", file, "--json"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(2);
    const report = JSON.parse(result.stdout) as JsonReport;
    const got = report.rows.map((r, i) => [CASES[i]!.name, r.verdict]);
    expect(got).toEqual(CASES.map((c) => [c.name, c.verdict]));
    for (const [i, c] of CASES.entries()) {
      const row = report.rows[i]!;
      if (c.verdict === "ok") {
        expect(row.next_step, c.name).toBeNull();
        continue;
      }
      const day = c.change!.day;
      expect(row.detail, c.name).toContain(`the bank_accounts change of ${day} is not verified: `);
      expect(row.detail, c.name).toContain(c.detail!);
      expect(row.next_step, c.name).toContain("confirm the account with the supplier by phone");
      if (c.step) expect(row.next_step, c.name).toContain(c.step);
      if (day === RECENT) {
        expect(row.next_step, c.name).toContain(`holds the payment until ${addDays(RECENT, 30)} has passed`);
      }
    }
  });

  it("gives way only when the hold has passed", async () => {
    const taxId = taxBase(2_100_000);
    const own = account(2100);
    await seedRecord(test.db.sql, taxId, [own], daysAgo(1));
    await watch(test.db.sql, "k1", taxId);
    await seedChange(test.db.sql, { taxId, day: daysAgo(5), file: { status: "skipped" } });
    const file = await writeBatch(dir, "hold.csv", ["tax_id,bank_account", `${taxId},${own}`]);
    const held = await runCli(["payments", "check", file, "--csv"], env);
    expect(held.code).toBe(2);
    const [header, row] = held.stdout.trim().split("\n");
    expect(header!.split(",")).toContain("next_step");
    expect(row).toMatch(/^2,account_change_unverified,/);
    // A record read after the change does not settle it while the change is within the hold...
    const shorter = await runCli(["payments", "check", file, "--hold-days", "4", "--csv"], env);
    expect(shorter.code).toBe(0);
    expect(shorter.stdout.trim().split("\n")[1]).toMatch(/^2,ok,/);
  });

  it("is named beside a worse verdict, and kept with its next step by --record", async () => {
    const taxId = taxBase(2_200_000);
    await seedRecord(test.db.sql, taxId, [account(2200)], daysAgo(10));
    await watch(test.db.sql, "k1", taxId);
    await seedChange(test.db.sql, { taxId, day: RECENT, file: { status: "skipped" } });
    const file = await writeBatch(dir, "worse.csv", [
      "tax_id,bank_account,reference",
      `${taxId},${account(2201)},R1`,
      `${taxId},${account(2200)},R2`,
    ]);
    const result = await runCli(["payments", "check", file, "--record"], env);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/^account_not_registered\s+2\s/m);
    expect(result.stdout).toMatch(/^account_change_unverified\s+3\s/m);
    expect(result.stdout).toContain(
      `line 2: the business's registered account(s): ${account(2200)}; the bank_accounts change of ${RECENT} is not verified`,
    );
    expect(result.stdout).toContain("  next step: Add bank_accounts to REGWATCH_FETCH_FILES");
    const rows = await test.db.sql<{ line: number; verdict: string; next_step: string | null }[]>`
      select line, verdict, next_step from regwatch.payment_checks order by line`;
    expect(rows.map((r) => [r.line, r.verdict])).toEqual([
      [2, "account_not_registered"],
      [3, "account_change_unverified"],
    ]);
    expect(rows[0]!.next_step).toContain("Do not pay this account");
    expect(rows[1]!.next_step).toContain("REGWATCH_FETCH_FILES");
  });
});

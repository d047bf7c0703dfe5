/**
 * A person closes the loop: `payments verify` records that an account was confirmed out of band,
 * and the check then lets go the payment that a change of the payee's accounts held, saying who
 * verified it and when. A verification covers changes dated on or before its day; a later change
 * holds again. It never releases a bad amount, a name mismatch, or an account another business holds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentRow } from "../../src/formats/batch-row.ts";
import { saveBusinesses } from "../../src/parse/save-businesses.ts";
import { ibanOf } from "../../src/payments/accounts.ts";
import { listVerifications, verifyPayee } from "../../src/payments/verification.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { checkRows, companyRecord, paymentRow } from "./chunk-fixtures.ts";
import { account, accountList, daysAgo, seedChange, taxBase, today, watch } from "./fixtures.ts";

let test: TestDatabase;
let env: Record<string, string>;

const CHANGED = taxBase(2_000_001);
const UNVERIFIED = taxBase(2_000_002);
const OTHER = taxBase(2_000_003);
const OLD = account(201);
const NEW = account(202);
const UNVERIFIED_ACCOUNT = account(203);
const OTHERS = account(204);

const record = (taxId: string, accounts: string[]) =>
  companyRecord(taxId, accounts, { full_name: `Beszállító ${taxId} Kft.`, short_name: null });

const row = (taxId: string | null, bankAccount: string, over: Partial<PaymentRow> = {}) =>
  paymentRow(taxId, bankAccount, { amount: "99000", amountRaw: "99 000", ...over });

const check = (rows: PaymentRow[]) => checkRows(test.db, rows);

const noon = (day: string) => new Date(`${day}T12:00:00Z`);

beforeAll(async () => {
  test = await createTestDatabase();
  env = { DATABASE_URL: test.url };
  const sql = test.db.sql;
  await saveBusinesses(
    sql,
    [record(CHANGED, [OLD, NEW]), record(UNVERIFIED, [UNVERIFIED_ACCOUNT]), record(OTHER, [OTHERS])],
    "Europe/Budapest",
  );
  await watch(sql, "k1", CHANGED, UNVERIFIED, OTHER);
  await seedChange(sql, {
    taxId: CHANGED,
    day: daysAgo(5),
    file: { status: "fetched", parseStatus: "parsed" },
    value: { old: accountList(OLD), new: accountList(OLD, NEW) },
  });
  await seedChange(sql, {
    taxId: UNVERIFIED,
    day: daysAgo(2),
    file: { status: "failed", lastError: "HTTP 503" },
  });
}, 60_000);

afterAll(async () => {
  await test?.drop();
});

describe("payments verify", () => {
  it("releases the hold a recent account change caused, and is listed", async () => {
    const [before] = await check([row(CHANGED, NEW)]);
    expect(before!.verdict).toBe("account_recently_changed");
    expect(before!.nextStep).toContain(`regwatch payments verify ${NEW} --tax-id ${CHANGED}`);

    // A call made before the change confirmed the old state, not the new account.
    await verifyPayee(
      test.db,
      { account: NEW, taxId: CHANGED, by: "Early Bird", note: null, at: noon(daysAgo(10)) },
      "Europe/Budapest",
    );
    const [early] = await check([row(CHANGED, NEW)]);
    expect(early!.verdict).toBe("account_recently_changed");
    expect(early!.detail).toContain(
      `verified by Early Bird on ${daysAgo(10)}, before the change of ${daysAgo(5)}`,
    );

    // The account as the invoice writes it (an IBAN), the tax number in full.
    const result = await runCli(
      [
        "payments",
        "verify",
        ibanOf(NEW.replace(/-/g, "")),
        "--tax-id",
        `${CHANGED}-2-41`,
        "--by",
        "Kiss Anna",
        "--note",
        "called the finance desk on the number in our master data",
      ],
      env,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`account ${NEW} of ${CHANGED}, verified by Kiss Anna on ${today}`);

    const [after, misnamed, badAmount] = await check([
      row(CHANGED, NEW),
      row(CHANGED, NEW, { name: "Egészen Más Zrt." }),
      row(CHANGED, NEW, { amount: "0", amountRaw: "0" }),
    ]);
    expect(after).toMatchObject({
      verdict: "ok",
      verifiedBy: "Kiss Anna",
      verifiedOn: today,
      nextStep: null,
    });
    expect(after!.detail).toBe(
      `verified by Kiss Anna on ${today} (called the finance desk on the number in our master data)`,
    );
    expect(misnamed!.verdict).toBe("name_mismatch");
    expect(badAmount!.verdict).toBe("invalid_amount");

    const listed = await runCli(["payments", "verifications", "--tax-id", CHANGED, "--json"], env);
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(rows.map((r) => [r.verified_by, r.verified_on, r.bank_account, r.tax_id])).toEqual([
      ["Kiss Anna", today, NEW, CHANGED],
      ["Early Bird", daysAgo(10), NEW, CHANGED],
    ]);
    const text = await runCli(["payments", "verifications"], env);
    expect(text.stdout).toMatch(/Kiss Anna\s+called the finance desk/);
  });

  it("releases an unverified change dated on or before the verification's day, not a later one", async () => {
    await verifyPayee(test.db, {
      account: UNVERIFIED_ACCOUNT,
      taxId: UNVERIFIED,
      by: "Nagy Béla",
      note: "phoned",
      at: noon(daysAgo(3)),
    });
    const [held] = await check([row(UNVERIFIED, UNVERIFIED_ACCOUNT)]);
    expect(held!.verdict).toBe("account_change_unverified");
    await verifyPayee(test.db, {
      account: UNVERIFIED_ACCOUNT,
      taxId: UNVERIFIED,
      by: "Nagy Béla",
      note: "phoned again",
      at: noon(daysAgo(2)),
    });
    const [released] = await check([row(UNVERIFIED, UNVERIFIED_ACCOUNT)]);
    expect(released).toMatchObject({ verdict: "ok", verifiedBy: "Nagy Béla", verifiedOn: daysAgo(2) });
  });

  it("never releases an account another business holds", async () => {
    await verifyPayee(test.db, { account: OTHERS, taxId: CHANGED, by: "Kiss Anna", note: null });
    const [elsewhere] = await check([row(CHANGED, OTHERS)]);
    expect(elsewhere!.verdict).toBe("account_not_registered");
    expect(elsewhere!.verifiedBy).toBeNull();
  });

  it("refuses bad arguments with 64, naming each, and records nothing", async () => {
    const before = await listVerifications(test.db, {});
    const bad = await runCli(
      ["payments", "verify", "11773016-11111019", "--tax-id", "12345677", "--by", "  "],
      env,
    );
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('tax id "12345677" has a wrong check digit');
    expect(bad.stderr).toContain("wrong check digit in its account part");
    expect(bad.stderr).toContain("--by: say who confirmed the account");
    const filter = await runCli(["payments", "verifications", "--tax-id", "nope"], env);
    expect(filter.code).toBe(64);
    expect(await listVerifications(test.db, {})).toHaveLength(before.length);
  });
});

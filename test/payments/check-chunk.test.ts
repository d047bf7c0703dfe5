/**
 * checkChunk against a real database: every verdict, from search records kept the way `lookup`
 * keeps them (saveBusinesses), changes seeded as sync and the parser write them, watch lists, and
 * verifications recorded through verifyPayee. Rows without a tax number are judged as payments to
 * the business holding their account; sole proprietors, whose registry data lists no accounts,
 * pass like anyone else.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BusinessRecord } from "../../src/api/search-schemas.ts";
import type { PaymentRow } from "../../src/formats/batch-row.ts";
import { saveBusinesses } from "../../src/parse/save-businesses.ts";
import { createKnowledgeCache } from "../../src/payments/check-chunk.ts";
import type { CheckedRow } from "../../src/payments/verdicts.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { checkRows, companyRecord, paymentRow } from "./chunk-fixtures.ts";
import { account, accountList, daysAgo, seedChange, taxBase, watch } from "./fixtures.ts";

let test: TestDatabase;

const PAYEE = taxBase(1_000_001);
const CEASED = taxBase(1_000_002);
const SUSPENDED = taxBase(1_000_003);
const CHANGED = taxBase(1_000_004);
const UNVERIFIED = taxBase(1_000_005);
const UNWATCHED = taxBase(1_000_006);
const SOLE = taxBase(1_000_007);
const TWIN_A = taxBase(1_000_008);
const TWIN_B = taxBase(1_000_009);
const RENAMED = taxBase(1_000_010);
const NOBODY = taxBase(1_000_099);

const acct = {
  payee: account(1),
  ceased: account(2),
  suspended: account(3),
  changedOld: account(4),
  changedNew: account(40),
  unverified: account(5),
  unwatched: account(6),
  shared: account(8),
  renamed: account(10),
  unknown: account(99),
};

const company = companyRecord;

let line = 1;
function row(over: Partial<PaymentRow>): PaymentRow {
  line++;
  return paymentRow(PAYEE, acct.payee, { line, reference: `invoice ${line}`, ...over });
}

const check = (rows: PaymentRow[]) => checkRows(test.db, rows);

beforeAll(async () => {
  test = await createTestDatabase();
  const sql = test.db.sql;
  await saveBusinesses(
    sql,
    [
      company(PAYEE, [acct.payee], {
        full_name: "PÉLDA Kereskedelmi és Szolgáltató Korlátolt Felelősségű Társaság",
        short_name: "Példa Kft.",
      }),
      company(CEASED, [acct.ceased], { status_code: 0 }),
      company(SUSPENDED, [acct.suspended], { status_code: 2 }),
      company(CHANGED, [acct.changedOld, acct.changedNew]),
      company(UNVERIFIED, [acct.unverified]),
      company(UNWATCHED, [acct.unwatched]),
      {
        type: "self_employed",
        status_code: 1,
        tax_number: `${SOLE}-1-33`,
        full_name: "Kovács János",
      } as BusinessRecord,
      company(TWIN_A, [acct.shared]),
      company(TWIN_B, [acct.shared]),
      company(RENAMED, [acct.renamed], { full_name: "Új Név Kft.", short_name: null }),
    ],
    "Europe/Budapest",
  );
  await watch(sql, "k1", PAYEE, CEASED, SUSPENDED, CHANGED, UNVERIFIED, SOLE, TWIN_A, TWIN_B, RENAMED);
  // CHANGED took a new account five days ago: the change file was read and gives the new list.
  await seedChange(sql, {
    taxId: CHANGED,
    day: daysAgo(5),
    file: { status: "fetched", parseStatus: "parsed" },
    value: { old: accountList(acct.changedOld), new: accountList(acct.changedOld, acct.changedNew) },
  });
  // UNVERIFIED's bank_accounts change of two days ago: its file is left out, its values unknown.
  await seedChange(sql, { taxId: UNVERIFIED, day: daysAgo(2), file: { status: "skipped" } });
  // RENAMED was called "Régi Név Kft." until ten days ago (within the hold period).
  const id = await seedChange(sql, { taxId: RENAMED, day: daysAgo(10), headings: ["long_name"] });
  await sql`
    insert into regwatch.change_values (change_id, heading, tax_id, change_date, old_value, new_value, path, day_order)
    values (${id}, 'long_name', ${RENAMED}, ${daysAgo(10)}, ${sql.json("Régi Név Kft.")}, ${sql.json("Új Név Kft.")},
            'https://files.example/renamed.json', 1)`;
}, 60_000);

afterAll(async () => {
  await test?.drop();
});

const summary = (r: CheckedRow) => [r.verdict, r.taxBase, r.payeeFoundBy];

describe("checkChunk", () => {
  it("gives every verdict from what the database holds", async () => {
    const rows = [
      row({ name: "PELDA KFT" }),
      row({ taxId: "12345677" }),
      row({ bankAccount: "11773016-11111019" }),
      row({ taxId: null, name: "Példa Kereskedelmi Kft." }),
      row({ taxId: null, bankAccount: acct.unknown }),
      row({ taxId: null, bankAccount: acct.shared }),
      row({ taxId: CEASED, bankAccount: acct.ceased }),
      row({ taxId: SUSPENDED, bankAccount: acct.suspended }),
      row({ bankAccount: acct.ceased }),
      row({ name: "Csaló Kereskedelmi Kft." }),
      row({ amount: "0", amountRaw: "0,00" }),
      row({ amount: null, amountRaw: "1.250", amountProblem: "ambiguous: 1.250 may be 1250 or 1.25" }),
      row({ amount: "-5000", amountRaw: "-5 000" }),
      row({ taxId: CHANGED, bankAccount: acct.changedNew }),
      row({ taxId: UNVERIFIED, bankAccount: acct.unverified }),
      row({ taxId: NOBODY, bankAccount: acct.unknown }),
      row({ taxId: UNWATCHED, bankAccount: acct.unwatched }),
    ];
    const checked = await check(rows);
    expect(checked.map(summary)).toEqual([
      ["ok", PAYEE, "tax_id"],
      ["invalid_tax_id", null, "tax_id"],
      ["invalid_account", PAYEE, "tax_id"],
      ["ok", PAYEE, "account"],
      ["unknown_account_holder", null, null],
      ["unknown_account_holder", null, null],
      ["business_ceased", CEASED, "tax_id"],
      ["business_suspended", SUSPENDED, "tax_id"],
      ["account_not_registered", PAYEE, "tax_id"],
      ["name_mismatch", PAYEE, "tax_id"],
      ["invalid_amount", PAYEE, "tax_id"],
      ["invalid_amount", PAYEE, "tax_id"],
      ["invalid_amount", PAYEE, "tax_id"],
      ["account_recently_changed", CHANGED, "tax_id"],
      ["account_change_unverified", UNVERIFIED, "tax_id"],
      ["unknown_business", NOBODY, "tax_id"],
      ["not_watched", UNWATCHED, "tax_id"],
    ]);
    const [ok, , , byAccount, unknown, shared, , , elsewhere, mismatch, zero, ambiguous, negative] = checked;
    expect(ok!.registryName).toBe("PÉLDA Kereskedelmi és Szolgáltató Korlátolt Felelősségű Társaság");
    expect(ok!.nextStep).toBeNull();
    expect(byAccount!.detail).toContain(`payee found by its account: ${PAYEE} (PÉLDA Kereskedelmi`);
    expect(unknown!.detail).toContain("the file gives no tax number and no source regwatch has");
    expect(unknown!.nextStep).toContain("--online");
    expect(shared!.detail).toContain(`registered to several businesses: ${TWIN_A}`);
    expect(shared!.detail).toContain(`and ${TWIN_B}`);
    expect(elsewhere!.detail).toContain(`the account is registered to ${CEASED}`);
    expect(mismatch!.detail).toContain('the file names the payee "Csaló Kereskedelmi Kft."');
    expect(mismatch!.detail).toContain('"Példa Kft."');
    expect(zero!.detail).toBe('the amount "0,00" is zero');
    expect(zero!.nextStep).toContain("Fix the amount in the file");
    expect(ambiguous!.detail).toContain('the amount "1.250" cannot be paid: ambiguous');
    expect(negative!.detail).toBe('the amount "-5 000" is negative');
    for (const r of checked) if (r.verdict !== "ok") expect(r.nextStep, r.verdict).toMatch(/^[A-Z]/);
    expect(checked[13]!.nextStep).toContain(
      `regwatch payments verify ${acct.changedNew} --tax-id ${CHANGED} --by "YOUR NAME"`,
    );
  });

  it("checks a sole proprietor like any business, and holds an account no source has shown as unconfirmed", async () => {
    const [pass, elsewhere, misnamed, byAccount] = await check([
      row({ taxId: `${SOLE}-1-33`, bankAccount: account(70), name: "Kovács János e.v." }),
      row({ taxId: SOLE, bankAccount: acct.payee }),
      row({ taxId: SOLE, bankAccount: account(70), name: "Kovács Péter e.v." }),
      row({ taxId: null, bankAccount: account(70) }),
    ]);
    // Nothing ever showed account(70): the registry lists none for a sole proprietor, and no other source has it.
    expect(pass).toMatchObject({
      verdict: "account_unconfirmed",
      taxBase: SOLE,
      registryName: "Kovács János",
    });
    expect(pass!.detail).toContain("has ever shown this account");
    expect(pass!.detail).toContain("the registry lists no bank accounts for this kind of business");
    expect(elsewhere).toMatchObject({ verdict: "account_not_registered" });
    expect(elsewhere!.detail).toContain(`the account is registered to ${PAYEE}`);
    expect(misnamed!.verdict).toBe("name_mismatch");
    // Nothing local knows who holds a sole proprietor's account, and the search covers companies only.
    expect(byAccount!.verdict).toBe("unknown_account_holder");
  });

  it("accepts a name the business bore during the hold period, and says when no name can be compared", async () => {
    const [former, current, other, noName] = await check([
      row({ taxId: RENAMED, bankAccount: acct.renamed, name: "Régi Név Kft." }),
      row({ taxId: RENAMED, bankAccount: acct.renamed, name: "ÚJ NÉV KFT" }),
      row({ taxId: RENAMED, bankAccount: acct.renamed, name: "Harmadik Név Kft." }),
      row({ taxId: NOBODY, bankAccount: acct.unknown, name: "Valaki Kft." }),
    ]);
    expect(former!.verdict).toBe("ok");
    expect(current!.verdict).toBe("ok");
    expect(other!.verdict).toBe("name_mismatch");
    expect(other!.detail).toContain('"Régi Név Kft.", "Új Név Kft."');
    expect(noName!.verdict).toBe("unknown_business");
    expect(noName!.detail).toContain("the name could not be compared");
    // Outside the hold period the former name no longer counts.
    const [late] = await checkRows(
      test.db,
      [row({ taxId: RENAMED, bankAccount: acct.renamed, name: "Régi Név" })],
      { holdDays: 5 },
    );
    expect(late!.verdict).toBe("name_mismatch");
  });

  it("names the business found by account in every verdict it then gets", async () => {
    const [ceased] = await check([row({ taxId: null, bankAccount: acct.ceased })]);
    expect(ceased).toMatchObject({ verdict: "business_ceased", taxBase: CEASED, payeeFoundBy: "account" });
    const [changed] = await check([row({ taxId: null, bankAccount: acct.changedNew })]);
    expect(changed).toMatchObject({
      verdict: "account_recently_changed",
      taxBase: CHANGED,
      payeeFoundBy: "account",
    });
    const [misnamed] = await check([row({ taxId: null, bankAccount: acct.payee, name: "Más Cég Kft." })]);
    expect(misnamed).toMatchObject({ verdict: "name_mismatch", taxBase: PAYEE, payeeFoundBy: "account" });
  });

  it("reads a payee once per batch with the batch's cache, and judges the same", async () => {
    let reads = 0;
    // Every read of a chunk runs in a transaction of its own (withCheckReads).
    const sql = new Proxy(test.db.sql, {
      get(target, key, receiver) {
        if (key === "begin") reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const db = { ...test.db, sql };
    const rows = () => [
      row({ name: "Példa Kft." }),
      row({ taxId: null, bankAccount: acct.changedNew }),
      row({ taxId: UNVERIFIED, bankAccount: acct.unverified }),
      row({ taxId: null, bankAccount: acct.unknown }),
    ];
    const cache = createKnowledgeCache();
    const first = await checkRows(db, rows(), { cache });
    const readsOfFirst = reads;
    const second = await checkRows(db, rows(), { cache });
    expect(reads).toBe(readsOfFirst);
    expect(readsOfFirst).toBeGreaterThan(0);
    const fresh = await checkRows(test.db, rows());
    const verdicts = (checked: CheckedRow[]) => checked.map((r) => [r.verdict, r.taxBase, r.detail]);
    expect(verdicts(second)).toEqual(verdicts(first));
    expect(verdicts(fresh)).toEqual(verdicts(first));
    expect(first.map((r) => r.verdict)).toEqual([
      "ok",
      "account_recently_changed",
      "account_change_unverified",
      "unknown_account_holder",
    ]);
  });

  it("reads a 2,000-row chunk in a fixed number of statements, whatever its size", async () => {
    const statements = async (n: number) => {
      const rows = Array.from({ length: n }, (_, i) =>
        row({ taxId: i % 2 === 0 ? PAYEE : null, bankAccount: i % 3 === 0 ? acct.payee : account(1000 + i) }),
      );
      let count = 0;
      // Every tagged-template call of the client, statement or fragment, goes through apply.
      const sql = new Proxy(test.db.sql, {
        apply(target, self, args) {
          count++;
          return Reflect.apply(target, self, args);
        },
      });
      const checked = await checkRows({ ...test.db, sql }, rows);
      expect(checked).toHaveLength(n);
      return count;
    };
    const small = await statements(20);
    expect(await statements(2000)).toBe(small);
    expect(small).toBeLessThanOrEqual(10);
  });
});

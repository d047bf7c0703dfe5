/**
 * regwatch.v_bank_accounts from every source, in the shapes they are written: search records in
 * businesses, business_profiles (baseline and headings), and change values of bank_accounts as
 * arrays of {bank_account} objects or plain strings.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(async () => {
  await test?.drop();
});
beforeEach(async () => {
  await test.db.sql`
    truncate regwatch.businesses, regwatch.business_profiles, regwatch.change_values,
             regwatch.search_bank_accounts`;
});

const A = "11773016-11111018-00000000";
const B = "10400000-12345678-87654321";
const C = "12000000-22222222-33333333";

interface ViewRow {
  tax_id: string;
  bank_account: string;
  first_seen: string;
  last_seen: string;
  currently_registered: boolean;
  added_on: string | null;
  sources: string[];
}

async function view(): Promise<ViewRow[]> {
  return test.db.sql<ViewRow[]>`
    select tax_id, bank_account, to_char(first_seen, 'YYYY-MM-DD') as first_seen,
           to_char(last_seen, 'YYYY-MM-DD') as last_seen, currently_registered,
           to_char(added_on, 'YYYY-MM-DD') as added_on, sources
    from regwatch.v_bank_accounts order by tax_id, bank_account`;
}

async function change(id: number, taxId: string, day: string, oldValue: unknown, newValue: unknown) {
  await test.db.sql`
    insert into regwatch.change_values (change_id, heading, tax_id, change_date, old_value, new_value, path)
    values (${id}, 'bank_accounts', ${taxId}, ${day}, ${test.db.sql.json(oldValue as never)},
            ${test.db.sql.json(newValue as never)}, ${`https://files.example/${id}.json`})`;
}

describe("v_bank_accounts", () => {
  it("follows an account from the baseline through changes, in any written form", async () => {
    await test.db.sql`
      insert into regwatch.business_profiles (tax_id, baseline, baseline_as_of, headings)
      values ('12345676', ${test.db.sql.json({ bank_accounts: [{ bank_account: "11773016-11111018" }] })},
              '2024-01-10', '{}')`;
    // B added beside A, then A dropped; the second file writes plain strings and an IBAN.
    await change(
      1,
      "12345676",
      "2024-02-01",
      [{ bank_account: A }],
      [{ bank_account: A }, { bank_account: B }],
    );
    await change(
      2,
      "12345676",
      "2024-03-05",
      [A.replace(/-/g, ""), B],
      ["HU48 1040 0000 1234 5678 8765 4321"],
    );
    expect(await view()).toEqual([
      {
        tax_id: "12345676",
        bank_account: B,
        first_seen: "2024-02-01",
        last_seen: "2024-03-05",
        currently_registered: true,
        added_on: "2024-02-01",
        sources: ["change"],
      },
      {
        tax_id: "12345676",
        bank_account: A,
        first_seen: "2024-01-10",
        last_seen: "2024-03-04",
        currently_registered: false,
        added_on: null,
        sources: ["baseline", "change"],
      },
    ]);
  });

  it("computes the same rows for chosen businesses only through bank_accounts_of_businesses", async () => {
    await change(5, "12345676", "2024-02-01", [A], [B]);
    await change(6, "10000001", "2024-02-01", null, [C]);
    const all = await view();
    const chosen = await test.db.sql<{ tax_id: string; bank_account: string }[]>`
      select tax_id, bank_account from regwatch.bank_accounts_of_businesses('{10000001}') order by bank_account`;
    expect(all).toHaveLength(3);
    expect(chosen).toEqual(
      all
        .filter((r) => r.tax_id === "10000001")
        .map(({ tax_id, bank_account }) => ({ tax_id, bank_account })),
    );
  });

  it("takes the newest list as current: a later search record, a profile heading", async () => {
    await change(3, "10000001", "2024-02-01", null, [A]);
    await test.db.sql`
      insert into regwatch.businesses (tax_id, tax_number, record, records, fetched_at)
      values ('10000001', '10000001-2-41', ${test.db.sql.json({ bank_accounts: [{ bank_account: C }] })}, '[]',
              '2024-04-01T10:00:00Z')`;
    await test.db.sql`
      insert into regwatch.business_profiles (tax_id, headings)
      values ('10000018', ${test.db.sql.json({ bank_accounts: { value: [{ bank_account: B }], as_of: "2024-03-01", source: "change_file" } })})`;
    const rows = await view();
    expect(rows.map((r) => [r.tax_id, r.bank_account, r.currently_registered, r.sources])).toEqual([
      ["10000001", A, false, ["change"]],
      ["10000001", C, true, ["search"]],
      ["10000018", B, true, ["profile"]],
    ]);
    expect(rows[0]?.added_on).toBe("2024-02-01");
  });

  it("ignores values that are no account and records that do not list accounts", async () => {
    await change(4, "10000001", "2024-02-01", "n/a", [{ bank_account: "x" }, 42]);
    await test.db.sql`
      insert into regwatch.businesses (tax_id, tax_number, record, records)
      values ('10000018', '10000018-1-41', ${test.db.sql.json({ type: "self_employed" })}, '[]')`;
    expect(await view()).toEqual([]);
  });

  async function read(taxId: string, accounts: string[], fetchedAt: string) {
    const record = test.db.sql.json({ bank_accounts: accounts.map((bank_account) => ({ bank_account })) });
    await test.db.sql`
      insert into regwatch.businesses (tax_id, tax_number, record, records, fetched_at)
      values (${taxId}, ${`${taxId}-2-41`}, ${record}, '[]', ${fetchedAt})
      on conflict (tax_id) do update set record = excluded.record, fetched_at = excluded.fetched_at`;
  }

  const added = async () => (await view()).map((r) => [r.bank_account, r.currently_registered, r.added_on]);

  it("dates an account by the first record that lists it, and a re-read does not date it again", async () => {
    await read("10000001", [A], "2024-01-10T09:00:00Z");
    await read("10000001", [A, B], "2024-03-01T09:00:00Z");
    await read("10000001", [A, B], "2024-04-01T09:00:00Z");
    expect(await added()).toEqual([
      [B, true, "2024-03-01"],
      [A, true, null],
    ]);
    const [row] = await test.db.sql<{ added_source: string }[]>`
      select added_source from regwatch.v_bank_accounts where bank_account = ${B}`;
    expect(row?.added_source).toBe("search");
    const history = await test.db.sql<
      { n: number }[]
    >`select count(*)::int as n from regwatch.search_bank_accounts`;
    expect(history[0]?.n).toBe(2);
  });

  it("does not count a business's first record as adding its accounts", async () => {
    await read("10000001", [A, B], "2024-01-10T09:00:00Z");
    expect(await added()).toEqual([
      [B, true, null],
      [A, true, null],
    ]);
  });

  it("dates an account a record lists again after a change took it away by that record", async () => {
    await read("10000001", [A, B], "2024-01-10T09:00:00Z");
    await change(20, "10000001", "2024-02-01", [A, B], [A]);
    await read("10000001", [A, B], "2024-03-01T09:00:00Z");
    await read("10000001", [A, B], "2024-04-01T09:00:00Z");
    expect(await added()).toEqual([
      [B, true, "2024-03-01"],
      [A, true, null],
    ]);
  });

  it("takes a company's newer record without the accounts field as listing none", async () => {
    await read("10000001", [A], "2024-01-10T09:00:00Z");
    await test.db.sql`
      update regwatch.businesses set record = ${test.db.sql.json({ type: "companies" })},
             fetched_at = '2024-03-01T09:00:00Z'
      where tax_id = '10000001'`;
    expect(await added()).toEqual([[A, false, null]]);
  });

  it("reads a change's null new value as unknown, not as no accounts", async () => {
    await read("10000001", [A], "2024-01-10T09:00:00Z");
    await change(21, "10000001", "2024-02-01", [A], null);
    expect(await added()).toEqual([[A, true, null]]);
  });

  it("orders same-day changes by their chain, not by storage order", async () => {
    // Stored C-first: the change that comes second in the day has the lower id.
    await test.db.sql`
      insert into regwatch.change_values (change_id, heading, tax_id, change_date, old_value, new_value, path, day_order)
      values (30, 'bank_accounts', '10000001', '2024-02-01', ${test.db.sql.json([B])}, ${test.db.sql.json([C])}, 'f30', 2),
             (31, 'bank_accounts', '10000001', '2024-02-01', ${test.db.sql.json([A])}, ${test.db.sql.json([B])}, 'f31', 1)`;
    const rows = await added();
    expect(rows.find(([acct]) => acct === C)?.[1]).toBe(true);
    expect(rows.find(([acct]) => acct === B)?.[1]).toBe(false);
  });

  it("leaves every value of an ambiguous newest day possibly current", async () => {
    await read("10000001", [A], "2024-01-10T09:00:00Z");
    await test.db.sql`
      insert into regwatch.change_values (change_id, heading, tax_id, change_date, old_value, new_value, path,
                                          day_order, order_ambiguous)
      values (40, 'bank_accounts', '10000001', '2024-02-01', ${test.db.sql.json([A])}, ${test.db.sql.json([B])}, 'f40', null, true),
             (41, 'bank_accounts', '10000001', '2024-02-01', ${test.db.sql.json([C])}, ${test.db.sql.json([A])}, 'f41', null, true)`;
    const rows = await added();
    expect(
      rows
        .filter(([, current]) => current)
        .map(([acct]) => acct)
        .sort(),
    ).toEqual([A, B].sort());
  });
});

/**
 * The payment check counts days in the registry's calendar (REGWATCH_REGISTRY_TZ), as it counts
 * its own day and hold period: a search record read at 00:30 in Budapest (23:30 UTC the evening
 * before) added or removed its accounts on the Budapest day, whatever the database server's zone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registryDay } from "../../src/dates.ts";
import { keepRegistryZone } from "../../src/db/registry-zone.ts";
import { loadBankAccountsOf, withCheckReads } from "../../src/payments/sql/evidence.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const TAX_ID = "12345676";
const A = "11773016-11111018-00000000";
const B = "10400000-12345678-87654321";

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
  const sql = test.db.sql;
  // The server counts days in UTC here, whatever its own setting: the check must not depend on it.
  await sql`alter database ${sql(test.name)} set timezone = 'UTC'`;
  const read = async (accounts: string[], at: string) => {
    const record = {
      type: "companies",
      status_code: 1,
      full_name: "Példa Kft.",
      tax_number: `${TAX_ID}-2-41`,
      bank_accounts: accounts.map((bank_account) => ({ bank_account })),
    };
    await sql`
      insert into regwatch.businesses (tax_id, type, status_code, full_name, tax_number, record, records, fetched_at)
      values (${TAX_ID}, 'companies', 1, ${record.full_name}, ${record.tax_number},
              ${sql.json(record as never)}, ${sql.json([record] as never)}, ${at})
      on conflict (tax_id) do update set record = excluded.record, records = excluded.records,
        fetched_at = excluded.fetched_at`;
  };
  await read([A], "2026-01-10T12:00:00Z");
  // 00:30 on 16 February in Budapest: B appears.
  await read([A, B], "2026-02-15T23:30:00Z");
  // 00:15 on 21 March in Budapest: A is gone.
  await read([B], "2026-03-20T23:15:00Z");
});
afterAll(async () => {
  await test?.drop();
});

describe("days in the registry's calendar", () => {
  it("dates an instant by the registry's clock", () => {
    expect(registryDay("Europe/Budapest", new Date("2026-02-15T23:30:00Z"))).toBe("2026-02-16");
    expect(registryDay("Europe/Budapest", new Date("2026-07-15T22:30:00Z"))).toBe("2026-07-16");
    expect(registryDay("Europe/Budapest", new Date("2026-02-15T22:30:00Z"))).toBe("2026-02-15");
  });

  it("dates the accounts a search record added and removed by the day it was read there", async () => {
    const rows = await withCheckReads(test.db.sql, "Europe/Budapest", (sql) =>
      loadBankAccountsOf(sql, [TAX_ID]),
    );
    const byAccount = new Map(rows.map((r) => [r.account, r]));
    expect(byAccount.get(B)).toMatchObject({ currentlyRegistered: true, addedOn: "2026-02-16" });
    expect(byAccount.get(A)).toMatchObject({ currentlyRegistered: false, removedOn: "2026-03-21" });
  });

  it("follows the registry's zone the database holds (REGWATCH_REGISTRY_TZ, as migrate writes it)", async () => {
    const zone = (z: string) => test.db.pool.begin((tx) => keepRegistryZone(tx, "regwatch", z));
    await zone("UTC");
    try {
      const rows = await withCheckReads(test.db.sql, "UTC", (sql) => loadBankAccountsOf(sql, [TAX_ID]));
      const byAccount = new Map(rows.map((r) => [r.account, r]));
      expect(byAccount.get(B)?.addedOn).toBe("2026-02-15");
      expect(byAccount.get(A)?.removedOn).toBe("2026-03-20");
    } finally {
      await zone("Europe/Budapest");
    }
  });

  it("dates them on the registry's day whatever the transaction's zone", async () => {
    const rows = await withCheckReads(test.db.sql, "America/Los_Angeles", (sql) =>
      loadBankAccountsOf(sql, [TAX_ID]),
    );
    const byAccount = new Map(rows.map((r) => [r.account, r]));
    expect(byAccount.get(B)?.addedOn).toBe("2026-02-16");
    expect(byAccount.get(A)?.removedOn).toBe("2026-03-21");
  });
});

/**
 * One calendar for BI readers (issue 48, point 10): a day the views take from a moment is the
 * registry's day (REGWATCH_REGISTRY_TZ, Europe/Budapest by default), whatever the TimeZone of the
 * session that reads them. A search record read at 23:30 UTC on 31 December is read on 1 January
 * in Budapest; a reader in Los Angeles (15:30 on the 31st there) sees the Budapest day. `regwatch
 * migrate` writes the configured zone into the database (registry_zone()). Real Postgres, the
 * built command; the snooze case depends on the clock and is run at 23:30 UTC by CI's
 * `npm run test:at` step too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registryDay } from "../../src/dates.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const TAX_ID = "12345676";
const ACCOUNT = "11773016-11111018-00000000";
const UNREAD = "23456781";

let t: TestDatabase;

/** `fn`'s reads in a session whose TimeZone is `zone`, as a BI tool's. */
async function asReaderIn<T>(zone: string, fn: (sql: TestDatabase["db"]["sql"]) => Promise<T>): Promise<T> {
  return t.db.sql.begin(async (tx) => {
    await tx.unsafe(`set local time zone '${zone}'`);
    return fn(tx as unknown as TestDatabase["db"]["sql"]);
  }) as Promise<T>;
}

beforeAll(async () => {
  t = await createTestDatabase();
  const sql = t.db.sql;
  const record = {
    type: "companies",
    status_code: 1,
    full_name: "Naptár Kft.",
    tax_number: `${TAX_ID}-2-41`,
    bank_accounts: [{ bank_account: ACCOUNT }],
  };
  // Read at 00:30 on 1 January 2027 in Budapest.
  await sql`
    insert into ${sql.t.businesses} (tax_id, type, status_code, full_name, tax_number, record, records, fetched_at)
    values (${TAX_ID}, 'companies', 1, ${record.full_name}, ${record.tax_number},
            ${sql.json(record as never)}, ${sql.json([record] as never)}, '2026-12-31T23:30:00Z')`;
  // A name change of 30 December whose file was never read; a record read on 1 January in
  // Budapest (the second day after it) settles it, one read on the 31st would not.
  await sql`
    insert into ${sql.t.changes} (tax_id, change_date, chapter, path, changed_headings, raw, first_seen_at)
    values (${UNREAD}, '2026-12-30', '2', '/files/unread.json', '{long_name}', '{}', '2027-01-02T08:00:00Z')`;
  const unread = {
    type: "companies",
    status_code: 1,
    full_name: "Olvasott Kft.",
    tax_number: `${UNREAD}-2-41`,
  };
  await sql`
    insert into ${sql.t.businesses} (tax_id, type, status_code, full_name, tax_number, record, records, fetched_at)
    values (${UNREAD}, 'companies', 1, ${unread.full_name}, ${unread.tax_number},
            ${sql.json(unread as never)}, ${sql.json([unread] as never)}, '2026-12-31T23:30:00Z')`;
});
afterAll(async () => t?.drop());

describe("the views count the registry's days", () => {
  it("dates a record read at 23:30 UTC on the next Budapest day for a reader in Los Angeles", async () => {
    const rows = await asReaderIn(
      "America/Los_Angeles",
      (sql) => sql<{ first_seen: string; last_seen: string }[]>`
        select to_char(first_seen, 'YYYY-MM-DD') as first_seen, to_char(last_seen, 'YYYY-MM-DD') as last_seen
        from regwatch.v_bank_accounts where tax_id = ${TAX_ID} and bank_account = ${ACCOUNT}`,
    );
    expect(rows).toEqual([{ first_seen: "2027-01-01", last_seen: "2027-01-01" }]);
  });

  it("counts a record read on the registry's second day after an unread change as settling it", async () => {
    const rows = await asReaderIn(
      "America/Los_Angeles",
      (sql) => sql`select heading from regwatch.v_unread_headings where tax_id = ${UNREAD}`,
    );
    expect(rows).toEqual([]);
  });

  it("ends a snooze on the registry's day, not the reader's", async () => {
    const sql = t.db.sql;
    const today = registryDay("Europe/Budapest", new Date());
    const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    // A reader whose day is not Budapest's now, ahead of it or behind it: Kiritimati's day begins
    // at 10:00 UTC, Pago Pago's at 11:00 UTC, Budapest's at 23:00 (22:00 in summer) UTC.
    const reader = ["Pacific/Kiritimati", "Pacific/Pago_Pago"].find(
      (zone) => registryDay(zone, new Date()) !== today,
    )!;
    const [rule] = await sql<{ id: string }[]>`
      insert into ${sql.t.alert_rules} (name, channel, target) values ('naptár', 'notify', 'calendar') returning id`;
    const changes = await sql<{ id: string }[]>`
      insert into ${sql.t.changes} (tax_id, change_date, chapter, path, changed_headings, raw)
      values (${TAX_ID}, '2026-12-01', '2', '/files/a.json', '{status}', '{}'),
             (${TAX_ID}, '2026-12-02', '2', '/files/b.json', '{status}', '{}')
      returning id`;
    // One snoozed until yesterday (awake today), one until today (asleep until tomorrow).
    const alerts = await sql<{ id: string }[]>`
      insert into ${sql.t.alerts} (rule_id, change_id, status, snoozed_until)
      values (${rule!.id}, ${changes[0]!.id}, 'snoozed', ${yesterday}), (${rule!.id}, ${changes[1]!.id}, 'snoozed', ${today})
      returning id`;
    const open = await asReaderIn(
      reader,
      (sql) =>
        sql<{ id: string }[]>`select alert_id::text as id from regwatch.v_open_alerts order by alert_id`,
    );
    expect({ reader, open: open.map((r) => r.id) }).toEqual({ reader, open: [alerts[0]!.id] });
  });
});

describe("regwatch migrate", () => {
  it("writes REGWATCH_REGISTRY_TZ into the database, and the views follow it", async () => {
    const firstSeen = async () => {
      const [row] = await asReaderIn(
        "America/Los_Angeles",
        (sql) => sql<{ zone: string; day: string }[]>`
          select regwatch.registry_zone() as zone, to_char(first_seen, 'YYYY-MM-DD') as day
          from regwatch.v_bank_accounts where tax_id = ${TAX_ID}`,
      );
      return row;
    };
    const utc = await runCli(["migrate"], { DATABASE_URL: t.url, REGWATCH_REGISTRY_TZ: "UTC" });
    expect(utc.stderr).toBe("");
    expect(utc.code).toBe(0);
    expect(await firstSeen()).toEqual({ zone: "UTC", day: "2026-12-31" });
    const budapest = await runCli(["migrate"], { DATABASE_URL: t.url });
    expect(budapest.code).toBe(0);
    expect(await firstSeen()).toEqual({ zone: "Europe/Budapest", day: "2027-01-01" });
  });
});

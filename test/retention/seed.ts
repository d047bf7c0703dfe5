/**
 * Personal data of every kind the retention policy covers, some older than the test's policy and
 * some newer, written straight into a migrated database. Names are the ones the test looks for.
 */
import type { Sql } from "../../src/db/connect.ts";

/** Names that must be gone after apply, and names that must stay. */
export const OLD_NAMES = ["Kovács Anna", "Nagy Béla", "Régi Róbert", "Egyéni Erzsébet"];
export const KEPT_NAMES = ["Szabó Cecília", "Tóth Dénes", "Figyelt Ferenc"];

const reps = (...names: string[]) => names.map((name) => ({ name }));

async function change(sql: Sql, taxId: string, day: string, oldNames: string[], newNames: string[]) {
  const [row] = await sql<{ id: number }[]>`
    insert into ${sql.t.changes} (tax_id, change_date, chapter, path, changed_headings, raw)
    values (${taxId}, ${day}, 'c', ${`/files/${taxId}/${day}.json`}, '{representatives}', '{}')
    returning id`;
  await sql`
    insert into ${sql.t.change_values} (change_id, heading, tax_id, change_date, old_value, new_value, path)
    values (${row!.id}, 'representatives', ${taxId}, ${day}, ${sql.json(reps(...oldNames))},
            ${sql.json(reps(...newNames))}, ${`/files/${taxId}/${day}.json`})`;
}

export async function seedPersonalData(sql: Sql, recent: string): Promise<void> {
  // A watched company: three representatives changes, two of them years ago.
  await sql`insert into ${sql.t.desired_lists} (list_name) values ('main')`;
  await sql`insert into ${sql.t.desired_items} (list_name, tax_id) values ('main', '11111111'), ('main', '33333333')`;
  await change(sql, "11111111", "2018-01-10", ["Kovács Anna"], ["Nagy Béla"]);
  await change(sql, "11111111", "2019-03-01", ["Nagy Béla"], ["Szabó Cecília"]);
  await change(sql, "11111111", recent, ["Szabó Cecília"], ["Tóth Dénes"]);

  // Search records: an unwatched company read long ago, an unwatched and a watched sole proprietor.
  const record = (taxId: string, type: string, name: string, rep: string) =>
    sql.json({
      tax_id: taxId,
      type,
      full_name: name,
      address: "Budapest, Fő utca 1.",
      representatives: [{ name: rep }],
      bank_accounts: ["11773016-11111111-00000000"],
    });
  await sql`
    insert into ${sql.t.businesses} (tax_id, type, full_name, address, record, records, fetched_at) values
      ('22222222', 'companies', 'Régi Kft.', 'Győr', ${record("22222222", "companies", "Régi Kft.", "Régi Róbert")}, '[]', '2019-05-01'),
      ('44444444', 'self_employed', 'Egyéni Erzsébet', 'Pécs', ${record("44444444", "self_employed", "Egyéni Erzsébet", "Egyéni Erzsébet")},
       ${sql.json([{ tax_id: "44444444", full_name: "Egyéni Erzsébet", representatives: [{ name: "Egyéni Erzsébet" }] }])}, '2019-05-01'),
      ('33333333', 'self_employed', 'Figyelt Ferenc', 'Eger', ${record("33333333", "self_employed", "Figyelt Ferenc", "Figyelt Ferenc")}, '[]', '2019-05-01')`;
  await sql`
    insert into ${sql.t.business_profiles} (tax_id, name, type, headings, updated_at) values
      ('44444444', 'Egyéni Erzsébet', 'self_employed',
       ${sql.json({ full_name: { value: "Egyéni Erzsébet", as_of: "2019-05-01", source: "search" } })}, '2019-05-01'),
      ('11111111', 'Figyelt Kft.', 'companies',
       ${sql.json({ representatives: { value: [{ name: "Tóth Dénes" }], as_of: recent, source: "file" } })}, now())`;

  // Change files: a parsed body fetched long ago (goes), a recent one and an unparsed old one (stay).
  await sql`
    insert into ${sql.t.change_files} (path, status, body_json, parse_status, fetched_at) values
      ('/files/old-parsed.json', 'fetched', ${sql.json({ representatives: "Kovács Anna" })}, 'parsed', '2020-01-01'),
      ('/files/new-parsed.json', 'fetched', '{"x": 1}', 'parsed', now()),
      ('/files/old-unparsed.json', 'fetched', '{"x": 2}', 'unrecognised', '2020-01-01')`;

  // Payments: an old batch of three rows (goes), a recent one of one row (stays).
  for (const [at, rows, name] of [
    ["2015-02-01", 3, "Kovács Anna"],
    [recent, 1, "Friss Fanni"],
  ] as const) {
    const [batch] = await sql<{ id: string }[]>`
      insert into ${sql.t.payment_batches} (source, checked_at) values ('cli', ${at}) returning id`;
    for (let line = 1; line <= rows; line++)
      await sql`
        insert into ${sql.t.payment_checks} (batch_id, checked_at, line, bank_account, verdict, name)
        values (${batch!.id}, ${at}, ${line}, '11773016-11111111-00000000', 'ok', ${name})`;
  }
  await sql`
    insert into ${sql.t.held_uploads} (file_name, body, options, held_by, held_at) values
      ('old.csv', '\\x00', '{}', 'anna', now() - interval '3 days'), ('new.csv', '\\x00', '{}', 'anna', now())`;

  // An alert target's replies: one answered long ago, one today.
  const [rule] = await sql<{ id: number }[]>`
    insert into ${sql.t.alert_rules} (name, channel, target) values ('r', 'webhook', 'https://example.com/h') returning id`;
  await sql`
    insert into ${sql.t.alert_deliveries} (rule_id, kind, alert_ids, channel, target, status, last_reply, last_attempt_at, oldest_change) values
      (${rule!.id}, 'alert', '{}', 'webhook', 'https://example.com/h', 'sent', 'ok from Kovács Anna', '2020-01-01', '2020-01-01'),
      (${rule!.id}, 'alert', '{}', 'webhook', 'https://example.com/h', 'sent', 'fresh reply', now(), '2020-01-01')`;

  // Sign-in records: one failure long ago, one now.
  await sql`
    insert into ${sql.t.console_login_failures} (username, address, at) values
      ('anna', '192.0.2.1', '2020-01-01'), ('anna', '192.0.2.2', now())`;
}

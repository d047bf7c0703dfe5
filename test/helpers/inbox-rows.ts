/**
 * The inbox's rows under a filter, read from alerts directly: what each count card must agree
 * with (test/web/inbox-counts.test.ts, test/web/inbox-count-upkeep.test.ts).
 */
import { SEVERITY_RULE } from "../../src/alerts/severity.ts";
import type { Sql } from "../../src/db/connect.ts";
import { type InboxChangeFilter, inboxChanges } from "../../src/web/sql/inbox-changes.ts";

/** The open alerts, unfiltered, on one page of up to 500 changes. */
export const ALL_OPEN: InboxChangeFilter = {
  status: "open",
  list: null,
  heading: null,
  rule: null,
  from: null,
  to: null,
  severity: null,
  assignedTo: null,
  raisedSince: null,
  page: 1,
  pageSize: 500,
};

/** How many changes the inbox's first page shows under `filter` (on top of ALL_OPEN). */
export async function inboxRowsOf(sql: Sql, filter: Partial<InboxChangeFilter>): Promise<number> {
  return (await inboxChanges(sql, { ...ALL_OPEN, ...filter }, SEVERITY_RULE, "Europe/Budapest")).changes
    .length;
}

/** A change of `headings` dated 2026-11-20 with the new values given (old values are "1"), its id. */
export async function addChange(
  sql: Sql,
  taxId: string,
  headings: string[],
  values: Record<string, string> = {},
): Promise<number> {
  const [row] = await sql<{ id: number }[]>`
    insert into ${sql.t.changes} (tax_id, change_date, chapter, path, changed_headings, raw)
    values (${taxId}, date '2026-11-20', 'registry', ${`counts/${taxId}.json`}, ${headings}, '{}'::jsonb)
    returning id::int`;
  for (const [heading, value] of Object.entries(values))
    await addChangeValue(sql, row!.id, taxId, heading, value);
  return row!.id;
}

/** A value of the change under `heading`, from "1" to `value`. */
export async function addChangeValue(
  sql: Sql,
  changeId: number,
  taxId: string,
  heading: string,
  value: string,
): Promise<void> {
  await sql`
    insert into ${sql.t.change_values} (change_id, heading, tax_id, change_date, old_value, new_value, path)
    values (${changeId}, ${heading}, ${taxId}, date '2026-11-20', '"1"'::jsonb, ${sql.json(value)},
            ${`counts/${taxId}.json`})`;
}

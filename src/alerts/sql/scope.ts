/**
 * What an alert rule may name: the lists regwatch knows (remote lists by key or name, deleted ones
 * too, and desired lists not created yet) and the headings the data has named. A heading is looked
 * up in seen_headings (kept by each run's alert scan), in the changes no scan has reached yet (a
 * range of the primary key above the cursor), in parsed values (by their heading index) and in
 * profiles (one row per business, not per change): never by reading every change.
 */
import type { Sql, Tx } from "../../db/connect.ts";

export interface KnownLists {
  remote: { listKey: string; listName: string }[];
  desired: string[];
}

export async function knownLists(sql: Sql): Promise<KnownLists> {
  const [remote, desired] = await Promise.all([
    sql<{ listKey: string; listName: string }[]>`
      select list_key as "listKey", list_name as "listName" from ${sql.t.watch_lists} order by list_name, list_key`,
    sql<{ name: string }[]>`select list_name as name from ${sql.t.desired_lists} order by list_name`,
  ]);
  return { remote: [...remote], desired: desired.map((d) => d.name) };
}

/** The headings of `headings` that no stored change, value or profile has named. */
export async function unseenHeadings(sql: Sql, headings: readonly string[]): Promise<string[]> {
  if (headings.length === 0) return [];
  const rows = await sql<{ heading: string }[]>`
    with cursor as (select coalesce(max(last_change_id), 0) as id from ${sql.t.alert_scans})
    select h as heading from unnest(${headings as string[]}::text[]) as h
    where not exists (select 1 from ${sql.t.seen_headings} s where s.heading = h)
      and not exists (select 1 from ${sql.t.change_values} v where v.heading = h)
      and not exists (select 1 from ${sql.t.changes} c, cursor where c.id > cursor.id and h = any (c.changed_headings))
      and not exists (select 1 from ${sql.t.business_profiles} p where p.headings ? h)
    order by h`;
  return rows.map((r) => r.heading);
}

/** Up to `limit` headings seen so far, for a message that names what is known. */
export async function someSeenHeadings(
  sql: Sql,
  limit: number,
): Promise<{ headings: string[]; more: number }> {
  const rows = await sql<{ heading: string; total: number }[]>`
    select heading, count(*) over ()::int as total from ${sql.t.seen_headings} order by heading limit ${limit}`;
  return { headings: rows.map((r) => r.heading), more: Math.max(0, (rows[0]?.total ?? 0) - rows.length) };
}

/**
 * Notes the headings of the changes a scan covers (ids after `after` up to `upTo`), in the scan's
 * transaction, so seen_headings and the cursor move together.
 */
export async function noteSeenHeadings(tx: Tx, after: number, upTo: number): Promise<void> {
  if (upTo <= after) return;
  await tx`
    insert into ${tx.t.seen_headings} (heading)
    select distinct h from ${tx.t.changes} c, unnest(c.changed_headings) as h
    where c.id > ${after} and c.id <= ${upTo}
    order by h
    on conflict (heading) do nothing`;
}

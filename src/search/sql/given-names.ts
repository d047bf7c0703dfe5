/**
 * Names people and files gave businesses (given_names, migration 0040), each with where it came
 * from. Giving a name again from the same source replaces that source's name; the newest given
 * name is the one shown until the registry names the business.
 */
import type { Sql, Tx } from "../../db/connect.ts";

/** A name as given, with its source: `file <name>`, `user <who>` or `earlier`. */
export interface GivenName {
  name: string;
  source: string;
}

export interface GivenNameEntry extends GivenName {
  taxId: string;
}

/** Longest name kept (the table's check). */
export const GIVEN_NAME_MAX = 500;

/** Records the names (one statement); the same business and source again replaces the name. */
export async function saveGivenNames(sql: Sql | Tx, entries: readonly GivenNameEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((e) => ({
    tax_id: e.taxId,
    source: e.source,
    name: e.name.trim().slice(0, GIVEN_NAME_MAX),
  }));
  await sql`
    insert into ${sql.t.given_names} (tax_id, source, name)
    select r.tax_id, r.source, r.name
    from jsonb_to_recordset(${sql.json(rows as never)}::jsonb) as r(tax_id text, source text, name text)
    order by 1, 2
    on conflict (tax_id, source) do update set name = excluded.name, given_at = now()`;
}

/** The newest given name of each of these businesses that has one. */
export async function readGivenNames(sql: Sql, taxIds: readonly string[]): Promise<Map<string, GivenName>> {
  if (taxIds.length === 0) return new Map();
  const rows = await sql<(GivenName & { taxId: string })[]>`
    select distinct on (tax_id) tax_id as "taxId", name, source
    from ${sql.t.given_names} where tax_id = any(${taxIds as string[]}::text[])
    order by tax_id, given_at desc, source`;
  return new Map(rows.map((r) => [r.taxId, { name: r.name, source: r.source }]));
}

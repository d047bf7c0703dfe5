import type { Sql } from "../../db/connect.ts";
import { rowLimit } from "../../db/row-limit.ts";

/** Fetched change files per parse status ("unparsed" for those not parsed yet). */
export async function parseStatusCounts(sql: Sql): Promise<Record<string, number>> {
  const rows = await sql<{ parse_status: string; count: number }[]>`
    select coalesce(parse_status, 'unparsed') as parse_status, count(*)::int as count
    from ${sql.t.change_files} where status = 'fetched' group by 1`;
  const counts: Record<string, number> = {
    parsed: 0,
    unrecognised: 0,
    unattributed: 0,
    failed: 0,
    unparsed: 0,
  };
  for (const row of rows) counts[row.parse_status] = row.count;
  return counts;
}

/** A few files no parser could read or attribute, with the reason, so an operator sees what to look at. */
export async function unparsedExamples(
  sql: Sql,
  limit: number,
): Promise<{ path: string; parseStatus: string; parseError: string | null }[]> {
  return sql`
    select path, parse_status as "parseStatus", parse_error as "parseError" from ${sql.t.change_files}
    where parse_status in ('unrecognised', 'unattributed', 'failed') order by parsed_at desc, path ${rowLimit(sql, limit)}`;
}

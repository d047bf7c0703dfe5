import type { Interval } from "../sync/plan.ts";
import type { Sql } from "./connect.ts";

/** Covered intervals per list, as the server reported them. */
export async function loadCoverage(sql: Sql, listKeys: readonly string[]): Promise<Map<string, Interval[]>> {
  const rows = await sql<{ list_key: string; start: string; end: string }[]>`
    select list_key, to_char(start_date, 'YYYY-MM-DD') as start, to_char(end_date, 'YYYY-MM-DD') as end
    from regwatch.coverage where list_key = any(${listKeys as string[]}::text[])
    order by list_key, start_date`;
  const byList = new Map<string, Interval[]>(listKeys.map((k) => [k, []]));
  for (const row of rows) byList.get(row.list_key)?.push({ start: row.start, end: row.end });
  return byList;
}

/** The console's runs page: recorded runs, newest first, filtered by kind and status, page by page. */
import type { Sql } from "../../db/connect.ts";
import type { RunRow } from "../../status/sql/status.ts";

export interface RunFilter {
  kind: string | null;
  status: string | null;
}

/** A run as `regwatch status` lists it, with where it ran. */
export interface ConsoleRunRow extends RunRow {
  host: string | null;
  pid: number | null;
}

/** One page of runs; one row more than `limit` is asked for, to tell whether another page follows. */
export async function readRunsPage(
  sql: Sql,
  filter: RunFilter,
  page: { limit: number; offset: number },
): Promise<ConsoleRunRow[]> {
  const rows = await sql<ConsoleRunRow[]>`
    select id, kind, trigger, status, started_at as "startedAt", finished_at as "finishedAt", error, stats, host, pid
    from ${sql.t.runs}
    where (${filter.kind}::text is null or kind = ${filter.kind}::text)
      and (${filter.status}::text is null or status = ${filter.status}::text)
    order by started_at desc, id desc
    limit ${page.limit + 1} offset ${page.offset}`;
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

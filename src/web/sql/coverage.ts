/**
 * What the console's coverage calendar reads: per list, the intervals read from the registry and
 * those an operator accepted, and the windows still held open by invalid items.
 */
import type { Sql } from "../../db/connect.ts";

export interface CoverageInterval {
  start: string;
  end: string;
  /** The operator's reason when the days were accepted with `coverage accept`; null when read. */
  acceptedReason: string | null;
}

export interface InvalidWindow {
  start: string;
  end: string;
  items: number;
  /** One of the reasons, to say what was wrong. */
  example: string;
}

export interface ListCoverageDetail {
  listKey: string;
  listName: string;
  createdAt: string | null;
  deleted: boolean;
  intervals: CoverageInterval[];
  invalid: InvalidWindow[];
}

/** Every known list, live ones first, with its intervals and open invalid windows. */
export async function readCoverageDetail(sql: Sql): Promise<ListCoverageDetail[]> {
  return sql<ListCoverageDetail[]>`
    select l.list_key as "listKey", l.list_name as "listName", to_char(l.created_at, 'YYYY-MM-DD') as "createdAt",
           l.deleted_at is not null as deleted,
           coalesce((select json_agg(json_build_object('start', to_char(c.start_date, 'YYYY-MM-DD'),
                                                       'end', to_char(c.end_date, 'YYYY-MM-DD'),
                                                       'acceptedReason', c.accepted_reason)
                                     order by c.start_date, c.end_date)
                     from ${sql.t.coverage} c where c.list_key = l.list_key), '[]'::json) as intervals,
           coalesce((select json_agg(json_build_object('start', w.window_start, 'end', w.window_end,
                                                       'items', w.items, 'example', w.example)
                                     order by w.window_start)
                     from (select to_char(i.window_start, 'YYYY-MM-DD') as window_start,
                                  to_char(i.window_end, 'YYYY-MM-DD') as window_end,
                                  count(*)::int as items, min(i.reason) as example
                           from ${sql.t.invalid_items} i
                           where i.list_key = l.list_key and i.resolved_at is null
                           group by i.window_start, i.window_end) w), '[]'::json) as invalid
    from ${sql.t.watch_lists} l
    order by l.deleted_at is not null, l.list_name, l.list_key`;
}

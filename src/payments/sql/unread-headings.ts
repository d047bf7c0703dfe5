/**
 * Headings whose latest change regwatch could not read (regwatch.v_unread_headings): whatever is
 * stored for them is stale from that change's day, until a search record read after it says what
 * holds. The console's profiles, the payment guard and the feed read them here.
 */
import type { Sql } from "../../db/connect.ts";

export interface UnreadHeadingRow {
  taxId: string;
  heading: string;
  /** Day of the unread change: the heading's value is unknown from it. */
  since: string;
  fileStatus: string | null;
  parseStatus: string | null;
  fileError: string | null;
  parseError: string | null;
}

/** The unread headings of these businesses, one row per business and heading. */
export async function loadUnreadHeadings(sql: Sql, taxIds: readonly string[]): Promise<UnreadHeadingRow[]> {
  if (taxIds.length === 0) return [];
  return sql<UnreadHeadingRow[]>`
    select tax_id as "taxId", heading, to_char(since, 'YYYY-MM-DD') as since,
           file_status as "fileStatus", parse_status as "parseStatus",
           file_error as "fileError", parse_error as "parseError"
    from ${sql.t.v_unread_headings}
    where tax_id = any(${taxIds as string[]}::text[])
    order by tax_id, heading`;
}

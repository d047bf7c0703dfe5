/**
 * The status `lookup` prints for the businesses a search returned: not the record's own status
 * alone, but the newest dated evidence's (changes/sql/newest-status.ts), as every other surface
 * gives it, read after the records were kept.
 */
import { newestStatus, type StatusSource } from "../../changes/sql/newest-status.ts";
import type { Sql } from "../../db/connect.ts";

export interface StatusNow {
  taxId: string;
  statusCode: number;
  statusOn: string;
  statusSource: StatusSource;
  /** The type of the business the newest kept record is of (a number can hold two). */
  type: string | null;
}

export async function readStatusesNow(
  sql: Sql,
  taxIds: readonly string[],
  timeZone: string,
): Promise<Map<string, StatusNow>> {
  if (taxIds.length === 0) return new Map();
  const rows = await sql<StatusNow[]>`
    select k.tax_id as "taxId", ns.code as "statusCode", ns.on_day as "statusOn", ns.source as "statusSource",
           (select b.type from ${sql.t.businesses} b where b.tax_id = k.tax_id) as type
    from unnest(${taxIds as string[]}::text[]) as k(tax_id)
    join lateral (${newestStatus(sql, sql`k.tax_id`, timeZone)}) ns on true`;
  return new Map(rows.map((r) => [r.taxId, r]));
}

/**
 * Keys the registry refused, by the variable that held them (table key_refusals of the account's
 * schema). Only a fingerprint of the key is kept, never the key.
 */
import type { Sql } from "../../db/connect.ts";

export interface KeyRefusalRow {
  keyVariable: string;
  keyFingerprint: string;
  refusedAt: Date;
  /** YYYY-MM-DD, the account's local day of the refusal. */
  refusedDay: string;
  httpStatus: number | null;
  endpoint: string;
  error: string;
}

/** Records (or renews) the refusal of the key held by `keyVariable`. */
export async function recordKeyRefusal(sql: Sql, row: Omit<KeyRefusalRow, "refusedAt">): Promise<void> {
  await sql`
    insert into ${sql.t.key_refusals} (key_variable, key_fingerprint, refused_day, http_status, endpoint, error)
    values (${row.keyVariable}, ${row.keyFingerprint}, ${row.refusedDay}, ${row.httpStatus},
            ${row.endpoint}, ${row.error})
    on conflict (key_variable) do update set
      key_fingerprint = excluded.key_fingerprint, refused_at = now(), refused_day = excluded.refused_day,
      http_status = excluded.http_status, endpoint = excluded.endpoint, error = excluded.error`;
}

/** Forgets the refusal of `keyVariable` (a run used its key again). */
export async function clearKeyRefusal(sql: Sql, keyVariable: string): Promise<void> {
  await sql`delete from ${sql.t.key_refusals} where key_variable = ${keyVariable}`;
}

/** Every recorded refusal of the schema's keys, newest first (none before migration 0030). */
export async function keyRefusals(sql: Sql): Promise<KeyRefusalRow[]> {
  const [table] = await sql<
    { present: boolean }[]
  >`select to_regclass(${`${sql.schema}.key_refusals`}) is not null as present`;
  if (!table?.present) return [];
  const rows = await sql<KeyRefusalRow[]>`
    select ${refusalColumns(sql)} from ${sql.t.key_refusals} order by refused_at desc`;
  return [...rows];
}

/** A refusal's columns under KeyRefusalRow's names (also read for many accounts at once). */
export function refusalColumns(sql: Sql) {
  return sql`key_variable as "keyVariable", key_fingerprint as "keyFingerprint", refused_at as "refusedAt",
           to_char(refused_day, 'YYYY-MM-DD') as "refusedDay", http_status as "httpStatus", endpoint, error`;
}

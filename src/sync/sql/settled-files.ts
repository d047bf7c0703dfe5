/**
 * Change files failed for good (`failed_for_good`): a body the database refuses whatever the
 * moment, kept as bytes with its reason. No sync fetches such a file again; `backfill --refetch`
 * opens those of its days once more, and `reparse` tries the kept bytes again without a request.
 */

import type { Sql } from "../../db/connect.ts";
import { permanentRefusal } from "../../db/db-errors.ts";
import { rowLimit } from "../../db/row-limit.ts";
import { redactSecrets } from "../../secrets.ts";

/**
 * Makes the files failed for good of the changes dated `from`..`to` (of the given lists, or of
 * any) open again with their attempts reset, so the file phase fetches each once more.
 */
export async function reopenSettledFiles(
  sql: Sql,
  range: { from: string; to: string; listKeys: readonly string[] },
): Promise<number> {
  const result = await sql`
    update ${sql.t.change_files} f
    set status = 'pending', failed_for_good = false, attempts = 0, updated_at = now()
    where f.failed_for_good
      and exists (
        select 1 from ${sql.t.changes} c
        where c.id = any(f.change_ids) and c.change_date between ${range.from}::date and ${range.to}::date
          and (${range.listKeys.length === 0} or exists (
            select 1 from ${sql.t.change_sources} s where s.change_id = c.id and s.list_key = any(${range.listKeys}::text[]))))`;
  return result.count;
}

/** The paths of the files failed for good whose bytes were kept, in path order. */
export async function settledFilesWithBody(sql: Sql): Promise<string[]> {
  const rows = await sql<{ path: string }[]>`
    select path from ${sql.t.change_files} where failed_for_good and body_bytes is not null order by path`;
  return rows.map((r) => r.path);
}

/**
 * Tries one settled file's kept bytes again as `fetched`, as jsonb when `asJson` (else as the
 * bytes they are): true when the database took them, false (nothing changed but the reason) when
 * it refuses them again for good. Any other failure is thrown.
 */
export async function storeSettledBody(sql: Sql, path: string, asJson: boolean): Promise<boolean> {
  try {
    await sql`
      update ${sql.t.change_files}
      set status = 'fetched', failed_for_good = false, last_error = null, updated_at = now(),
          body_json = case when ${asJson} then convert_from(body_bytes, 'UTF8')::jsonb end,
          body_bytes = case when ${asJson} then null else body_bytes end,
          parse_status = null
      where path = ${path} and failed_for_good`;
    return true;
  } catch (thrown) {
    const why = permanentRefusal(thrown);
    if (why === undefined) throw thrown;
    await keepSettled(sql, path, `the database refused the body for good: ${why}`);
    return false;
  }
}

/** Records why a settled file stays failed for good (a reason found again by reparse). */
export async function keepSettled(sql: Sql, path: string, reason: string): Promise<void> {
  await sql`
    update ${sql.t.change_files} set last_error = ${redactSecrets(reason)}, updated_at = now()
    where path = ${path} and failed_for_good`;
}

/** A settled file's kept bytes and content type, for reparse to judge again. */
export async function settledBody(
  sql: Sql,
  path: string,
): Promise<{ contentType: string | null; bytes: Buffer } | undefined> {
  const [row] = await sql<{ contentType: string | null; bytes: Buffer }[]>`
    select content_type as "contentType", body_bytes as bytes from ${sql.t.change_files}
    where path = ${path} and failed_for_good and body_bytes is not null`;
  return row;
}

export interface SettledFile {
  path: string;
  attempts: number;
  sizeBytes: number | null;
  reason: string | null;
}

/** Files failed for good, most recently settled first. */
export async function settledFiles(sql: Sql, limit: number): Promise<SettledFile[]> {
  return sql<SettledFile[]>`
    select path, attempts, size_bytes::float8 as "sizeBytes", last_error as reason
    from ${sql.t.change_files} where failed_for_good
    order by updated_at desc, path ${rowLimit(sql, limit)}`;
}

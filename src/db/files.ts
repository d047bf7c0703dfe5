import { redactSecrets } from "../secrets.ts";
import type { Sql } from "./connect.ts";

export interface OpenFile {
  path: string;
  attempts: number;
}

/**
 * A page of files to try (new ones, failed ones with attempts left, and refused ones, whose
 * origin is checked again against today's REGWATCH_FILE_ORIGINS), by path.
 */
export async function openFilesPage(
  sql: Sql,
  maxAttempts: number,
  afterPath: string,
  limit: number,
): Promise<OpenFile[]> {
  return sql<OpenFile[]>`
    select path, attempts from regwatch.change_files
    where (status in ('pending', 'refused') or (status = 'failed' and attempts < ${maxAttempts})) and path > ${afterPath}
    order by path
    limit ${limit}`;
}

export async function countOpenFiles(sql: Sql, maxAttempts: number): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from regwatch.change_files
    where status in ('pending', 'refused') or (status = 'failed' and attempts < ${maxAttempts})`;
  return row?.n ?? 0;
}

export type FileOutcome =
  | {
      path: string;
      status: "fetched";
      httpStatus: number;
      contentType: string | null;
      sha256: string;
      size: number;
      /** A JSON body as text, parsed by Postgres; null when the body is kept as bytes. */
      jsonText: string | null;
      bytes: Buffer | null;
    }
  | { path: string; status: "failed" | "refused"; httpStatus: number | null; error: string };

/**
 * Writes one file's outcome in one statement. The body is passed as text and cast to jsonb by
 * Postgres, so a body it refuses (too deep, malformed) fails this statement and no other file.
 */
export async function saveFileOutcome(sql: Sql, o: FileOutcome): Promise<void> {
  if (o.status === "fetched") {
    await sql`
      update regwatch.change_files
      set status = 'fetched', http_status = ${o.httpStatus}, content_type = ${o.contentType}, sha256 = ${o.sha256},
          size_bytes = ${o.size}, body_json = ${o.jsonText}::text::jsonb, body_bytes = ${o.bytes},
          attempts = attempts + 1, last_error = null, fetched_at = now(), updated_at = now()
      where path = ${o.path}`;
    return;
  }
  await sql`
    update regwatch.change_files
    set status = ${o.status}, http_status = ${o.httpStatus}, last_error = ${redactSecrets(o.error)}, updated_at = now(),
        attempts = attempts + ${o.status === "failed" ? 1 : 0}
    where path = ${o.path}`;
}

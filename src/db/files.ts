import type { Sql } from "./connect.ts";

export interface OpenFile {
  path: string;
  attempts: number;
}

/** A page of files still to fetch (new ones, and failed ones with attempts left), by path. */
export async function openFilesPage(
  sql: Sql,
  maxAttempts: number,
  afterPath: string,
  limit: number,
): Promise<OpenFile[]> {
  return sql<OpenFile[]>`
    select path, attempts from regwatch.change_files
    where (status = 'pending' or (status = 'failed' and attempts < ${maxAttempts})) and path > ${afterPath}
    order by path
    limit ${limit}`;
}

export async function countOpenFiles(sql: Sql, maxAttempts: number): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from regwatch.change_files
    where status = 'pending' or (status = 'failed' and attempts < ${maxAttempts})`;
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
      json: unknown;
      bytes: Buffer | null;
    }
  | { path: string; status: "failed" | "refused"; httpStatus: number | null; error: string };

/** Writes a batch of fetch outcomes in one statement per kind. */
export async function saveFileOutcomes(sql: Sql, outcomes: readonly FileOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const fetched = outcomes.filter((o) => o.status === "fetched");
  const other = outcomes.filter((o) => o.status !== "fetched");
  await sql.begin(async (tx) => {
    if (fetched.length > 0) {
      const rows = fetched.map((o) => ({
        path: o.path,
        http_status: o.httpStatus,
        content_type: o.contentType,
        sha256: o.sha256,
        size_bytes: o.size,
        body_json: o.json === undefined ? null : o.json,
        body_b64: o.bytes ? o.bytes.toString("base64") : null,
      }));
      await tx`
        update regwatch.change_files f
        set status = 'fetched', http_status = r.http_status, content_type = r.content_type, sha256 = r.sha256,
            size_bytes = r.size_bytes, body_json = r.body_json, body_bytes = decode(r.body_b64, 'base64'),
            attempts = f.attempts + 1, last_error = null, fetched_at = now(), updated_at = now()
        from jsonb_to_recordset(${tx.json(rows as never)}::jsonb)
          as r(path text, http_status int, content_type text, sha256 text, size_bytes bigint, body_json jsonb, body_b64 text)
        where f.path = r.path`;
    }
    if (other.length > 0) {
      const rows = other.map((o) => ({
        path: o.path,
        status: o.status,
        http_status: o.httpStatus,
        error: o.error,
      }));
      await tx`
        update regwatch.change_files f
        set status = r.status, http_status = r.http_status, last_error = r.error, updated_at = now(),
            attempts = f.attempts + case when r.status = 'failed' then 1 else 0 end
        from jsonb_to_recordset(${tx.json(rows as never)}::jsonb) as r(path text, status text, http_status int, error text)
        where f.path = r.path`;
    }
  });
}

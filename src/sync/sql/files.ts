import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { FetchFilesPolicy } from "../../config.ts";
import type { Sql, Tx } from "../../db/connect.ts";
import { permanentRefusal } from "../../db/db-errors.ts";
import { redactSecrets } from "../../secrets.ts";

export interface OpenFile {
  path: string;
  attempts: number;
}

/** The files REGWATCH_FETCH_FILES lets through: all, none, or those of changes touching a heading. */
function wanted(sql: Sql, policy: FetchFilesPolicy) {
  if (policy.kind === "all") return sql`true`;
  if (policy.kind === "none") return sql`false`;
  return sql`exists (
    select 1 from ${sql.t.changes} c
    where c.id = any(f.change_ids) and c.changed_headings && ${policy.headings}::text[])`;
}

/**
 * Leaves pending files the policy does not want as `skipped`: they stay until a wider policy
 * lets them through (skipped files are open to any sync whose policy wants them).
 */
export async function skipUnwantedFiles(sql: Sql, policy: FetchFilesPolicy): Promise<number> {
  if (policy.kind === "all") return 0;
  const result = await sql`
    update ${sql.t.change_files} f set status = 'skipped', updated_at = now()
    where status = 'pending' and not ${wanted(sql, policy)}`;
  return result.count;
}

/** A file failed for good (see saveStreamedFile) waits for `reparse` or `backfill --refetch`, never a sync. */
const OPEN = (sql: Sql, maxAttempts: number) =>
  sql`(f.status in ('pending', 'refused', 'skipped') or (f.status = 'failed' and not f.failed_for_good and f.attempts < ${maxAttempts}))`;

/** Where a page of open files ends: files are taken newest change first, then by path. */
export interface OpenFilesCursor {
  newest: string;
  path: string;
}

/**
 * A page of files to try (new ones, failed ones with attempts left, skipped ones the policy now
 * wants, and refused ones, whose origin is checked again against today's REGWATCH_FILE_ORIGINS),
 * the files of the newest changes first, so the days users care about most land first.
 */
export async function openFilesPage(
  sql: Sql,
  maxAttempts: number,
  after: OpenFilesCursor | null,
  limit: number,
  policy: FetchFilesPolicy = { kind: "all" },
): Promise<(OpenFile & OpenFilesCursor)[]> {
  return sql<(OpenFile & OpenFilesCursor)[]>`
    select * from (
      select f.path, f.attempts,
             coalesce(to_char(f.newest_change, 'YYYY-MM-DD'), '') as newest
      from ${sql.t.change_files} f
      where ${OPEN(sql, maxAttempts)} and ${wanted(sql, policy)}
    ) o
    where ${after === null ? sql`true` : sql`(o.newest < ${after.newest} or (o.newest = ${after.newest} and o.path > ${after.path}))`}
    order by o.newest desc, o.path
    limit ${limit}`;
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
  | {
      path: string;
      status: "failed" | "refused";
      httpStatus: number | null;
      error: string;
      /** Failed in a way no repeat can change (the database refuses the data): no sync tries it again. */
      forGood?: boolean;
    };

/**
 * Writes one file's outcome in one statement. The body is passed as text and cast to jsonb by
 * Postgres, so a body it refuses (too deep, malformed) fails this statement and no other file.
 */
export async function saveFileOutcome(sql: Sql, o: FileOutcome): Promise<void> {
  if (o.status === "fetched") {
    await sql`
      update ${sql.t.change_files}
      set status = 'fetched', http_status = ${o.httpStatus}, content_type = ${o.contentType}, sha256 = ${o.sha256},
          size_bytes = ${o.size}, body_json = ${o.jsonText}::text::jsonb, body_bytes = ${o.bytes},
          attempts = attempts + 1, last_error = null, fetched_at = now(), updated_at = now()
      where path = ${o.path}`;
    return;
  }
  await sql`
    update ${sql.t.change_files}
    set status = ${o.status}, http_status = ${o.httpStatus}, last_error = ${redactSecrets(o.error)}, updated_at = now(),
        attempts = attempts + ${o.status === "failed" ? 1 : 0}, failed_for_good = ${o.forGood === true}
    where path = ${o.path}`;
}

export interface StreamedBody {
  path: string;
  httpStatus: number;
  contentType: string | null;
  /** The body as it arrives. */
  chunks: AsyncIterable<Buffer>;
  /** Sees every chunk on its way to the database. */
  onChunk: (chunk: Buffer) => void;
  /**
   * Called once the last chunk is in: the hash, the size, whether to keep the body as jsonb, and
   * why the body must not be stored as JSON at all (the file then fails for good).
   */
  facts: () => { sha256: string; size: number; asJson: boolean; refusal: string | null };
}

export interface SavedBody {
  sha256: string;
  size: number;
  /** Why the file failed for good (its body kept as bytes); null when it was stored as fetched. */
  refusal: string | null;
}

/** Bytes gathered into one staged row: a body of 64 MiB is about 256 rows. */
const STAGE_ROW_BYTES = 256 * 1024;

/** COPY's binary format: its signature, no flags and no header extension; a field count of -1 ends it. */
const COPY_START = Buffer.concat([Buffer.from("PGCOPY\n\xff\r\n\0", "latin1"), Buffer.alloc(8)]);
const COPY_END = Buffer.from([0xff, 0xff]);

/** A staged row's start in COPY's binary format: two fields, `n` (int4) and the bytea's length; its bytes follow. */
function rowStart(n: number, bytes: number): Buffer {
  const head = Buffer.allocUnsafe(14);
  head.writeInt16BE(2, 0);
  head.writeInt32BE(4, 2);
  head.writeInt32BE(n, 6);
  head.writeInt32BE(bytes, 10);
  return head;
}

/**
 * Streams one fetched body into Postgres and records it, in one transaction: the bytes are
 * staged as they arrive into a session-local staging table, a row per 256 KiB, never held whole
 * in this process, and then joined in order and moved to the file's row, as jsonb (Postgres
 * converts and parses them) or as bytes. A body refused for good (too deep before the database,
 * or refused by it with a SQLSTATE no repeat can change, see permanentRefusal) is kept as bytes
 * with its reason and the file failed for good. Whatever else fails (the transfer, a lost
 * connection) rolls back the whole file and is thrown for the caller to mark this file alone.
 *
 * Each row is one short COPY in its binary format, sent once its 256 KiB have arrived: not an
 * insert, whose bytea parameter the driver sends as hex text twice its size, made from a copy of
 * the bytes (each such statement left about seven times the bytes to collect); and not one COPY
 * for the whole body, which would stay open while the body stalls and be cancelled by a
 * statement timeout. The driver's COPY stream once hung when the server ended it with an error
 * after its last bytes (patched: test/db/driver-copy-settles.test.ts).
 */
export async function saveStreamedFile(sql: Sql, body: StreamedBody): Promise<SavedBody> {
  return sql.begin(async (tx) => {
    await tx`create temp table if not exists regwatch_file_chunks (n int, chunk bytea) on commit delete rows`;
    let rows = 0;
    let held: Buffer[] = [];
    let heldBytes = 0;
    const stage = async () => {
      if (heldBytes === 0) return;
      const row = [COPY_START, rowStart(rows++, heldBytes), ...held, COPY_END];
      held = [];
      heldBytes = 0;
      const copy = await tx`copy regwatch_file_chunks (n, chunk) from stdin with (format binary)`.writable();
      await pipeline(Readable.from(row, { objectMode: false }), copy);
    };
    for await (const chunk of body.chunks) {
      body.onChunk(chunk);
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes >= STAGE_ROW_BYTES) await stage();
    }
    await stage();
    const facts = body.facts();
    const saved = (refusal: string | null): SavedBody => ({
      sha256: facts.sha256,
      size: facts.size,
      refusal,
    });
    if (facts.refusal !== null) {
      await keepRefused(tx, body, facts, facts.refusal);
      return saved(facts.refusal);
    }
    try {
      // A savepoint, so that a body the database refuses can still be kept as bytes.
      await tx.savepoint(
        (sp) => sp`
          update ${sp.t.change_files} f
          set status = 'fetched', http_status = ${body.httpStatus}, content_type = ${body.contentType},
              sha256 = ${facts.sha256}, size_bytes = ${facts.size},
              body_json = case when ${facts.asJson} then convert_from(s.body, 'UTF8')::jsonb end,
              body_bytes = case when ${facts.asJson} then null else s.body end,
              attempts = f.attempts + 1, last_error = null, failed_for_good = false,
              fetched_at = now(), updated_at = now()
          from ${stagedBody(sp)}
          where f.path = ${body.path}`,
      );
      return saved(null);
    } catch (thrown) {
      const why = permanentRefusal(thrown);
      if (why === undefined) throw thrown;
      const refusal = `the database refused the body for good: ${why}`;
      await keepRefused(tx, body, facts, refusal);
      return saved(refusal);
    }
  });
}

/** The staged rows joined in order: the whole body as `s.body` (empty when none was staged). */
function stagedBody(tx: Tx) {
  return tx`(select coalesce(string_agg(chunk, ''::bytea order by n), ''::bytea) as body
             from regwatch_file_chunks) s`;
}

/** The staged body kept as bytes, and its file failed for good with the reason. */
async function keepRefused(
  tx: Tx,
  body: StreamedBody,
  facts: { sha256: string; size: number },
  refusal: string,
): Promise<void> {
  await tx`
    update ${tx.t.change_files} f
    set status = 'failed', failed_for_good = true, http_status = ${body.httpStatus},
        content_type = ${body.contentType}, sha256 = ${facts.sha256}, size_bytes = ${facts.size},
        body_json = null, body_bytes = s.body, parse_status = null, parser = null, parse_error = null,
        attempts = f.attempts + 1, last_error = ${redactSecrets(refusal)}, fetched_at = now(), updated_at = now()
    from ${stagedBody(tx)}
    where f.path = ${body.path}`;
}

/**
 * What the console's payment upload keeps between requests (migration 0041): column choices for
 * headers the reader did not recognise, uploads waiting for such a choice, and the stored rows of
 * a batch read back to be checked again.
 */
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import type { Sql, Tx } from "../../db/connect.ts";

export type ColumnChoice = Partial<Record<string, string>>;

/** A kept column choice with who made it and when. */
export interface RememberedColumns {
  columns: ColumnChoice;
  by: string;
  at: Date;
}

export async function readColumnChoice(sql: Sql, signature: string): Promise<RememberedColumns | undefined> {
  const [row] = await sql<RememberedColumns[]>`
    select columns, chosen_by as by, chosen_at as at
    from ${sql.t.payment_column_choices} where signature = ${signature}`;
  return row;
}

/** Whether the upload `id` is still held for `by` (its uploader), within the day it is kept. */
export async function isHeldFor(sql: Sql, id: string, by: string): Promise<boolean> {
  const [row] = await sql<{ held: boolean }[]>`
    select exists (select 1 from ${sql.t.held_uploads}
                   where id = ${id}::uuid and held_by = ${by} and held_at >= now() - interval '1 day') as held`;
  return row?.held ?? false;
}

export async function saveColumnChoice(
  sql: Sql,
  choice: { signature: string; headers: readonly string[]; columns: ColumnChoice; by: string },
): Promise<Date> {
  const [row] = await sql<{ at: Date }[]>`
    insert into ${sql.t.payment_column_choices} (signature, headers, columns, chosen_by)
    values (${choice.signature}, ${choice.headers as string[]}, ${sql.json(choice.columns as never)}, ${choice.by})
    on conflict (signature) do update
      set headers = excluded.headers, columns = excluded.columns, chosen_by = excluded.chosen_by, chosen_at = now()
    returning chosen_at as at`;
  return row!.at;
}

/**
 * A held upload's body crosses to and from Postgres through a session-local staging table: in by
 * COPY (its bytes as hex in COPY's text format), out in pieces, so a 100 MB file is never in
 * memory whole, nor twice over as hex text.
 */
async function stageTable(tx: Tx): Promise<void> {
  await tx`create temp table if not exists regwatch_upload_stage (body bytea) on commit delete rows`;
  // Kept uncompressed, so that reading a piece back reads that piece, not the whole body again.
  await tx`alter table regwatch_upload_stage alter column body set storage external`;
}

/** Keeps the upload saved at `path` for its uploader; uploads held for more than a day go first. */
export async function holdUpload(
  sql: Sql,
  upload: { fileName: string; path: string; options: Record<string, unknown>; by: string },
): Promise<string> {
  await sql`delete from ${sql.t.held_uploads} where held_at < now() - interval '1 day'`;
  return (await sql.begin(async (tx) => {
    await stageTable(tx);
    const copy = await tx`copy regwatch_upload_stage (body) from stdin`.writable();
    await pipeline(
      createReadStream(upload.path),
      async function* (chunks: AsyncIterable<Buffer>) {
        yield "\\\\x";
        for await (const chunk of chunks) yield chunk.toString("hex");
        yield "\n";
      },
      copy,
    );
    const [row] = await tx<{ id: string }[]>`
      insert into ${tx.t.held_uploads} (file_name, body, options, held_by)
      select ${upload.fileName}, body, ${tx.json(upload.options as never)}, ${upload.by}
      from regwatch_upload_stage
      returning id::text`;
    return row!.id;
  })) as string;
}

export interface HeldUpload {
  fileName: string;
  options: Record<string, unknown>;
}

/**
 * Pieces a held body is read back in, never the whole file. Each arrives as hex text twice its
 * size: at 48 KiB that text is small enough for V8's young generation, collected as it goes,
 * where pieces of 1 or 4 MiB went to the large-object space and piled up until a full
 * collection (a 98 MB file took the console to 230-290 MB, 195 MB with these).
 */
const PIECE_BYTES = 48 * 1024;

/**
 * The upload, its body written to `path` and its row removed; undefined when it is gone or
 * another user holds it.
 */
export async function takeHeldUpload(
  sql: Sql,
  id: string,
  by: string,
  path: string,
): Promise<HeldUpload | undefined> {
  return (await sql.begin(async (tx) => {
    await stageTable(tx);
    // The row leaves the table and its body goes to the staging table in one statement, made
    // anew (`|| ''`) so that it is stored there uncompressed and each piece is read by itself.
    const [row] = await tx<HeldUpload[]>`
      with taken as (
        delete from ${tx.t.held_uploads}
        where id = ${id}::uuid and held_by = ${by} and held_at >= now() - interval '1 day'
        returning file_name, options, body
      ), staged as (
        insert into regwatch_upload_stage (body) select body || ''::bytea from taken
      )
      select file_name as "fileName", options from taken`;
    if (!row) return undefined;
    const out = await open(path, "wx", 0o600);
    try {
      for (let at = 1; ; at += PIECE_BYTES) {
        const [piece] = await tx<{ bytes: Buffer }[]>`
          select substring(body from ${at} for ${PIECE_BYTES}) as bytes from regwatch_upload_stage`;
        if (!piece || piece.bytes.length === 0) break;
        await out.write(piece.bytes);
      }
    } finally {
      await out.close();
    }
    return row;
  })) as HeldUpload | undefined;
}

/** A stored row as the check reads it again. */
export interface StoredPaymentRow {
  line: number;
  taxId: string | null;
  bankAccount: string;
  amount: string | null;
  amountRaw: string | null;
  currency: string | null;
  reference: string | null;
  name: string | null;
}

/**
 * Every stored row of a batch, in line order, `size` at a time, or fewer when they hold more than
 * `maxText` characters (the server counts, so wide rows never reach this process many at a time;
 * a chunk holds at least one row).
 */
export async function* storedBatchRows(
  sql: Sql,
  batchId: string,
  size: number,
  maxText: number,
): AsyncGenerator<StoredPaymentRow[]> {
  let after = 0;
  for (;;) {
    // A row is taken when the text before it is within the bound: the first always is.
    const rows = await sql<StoredPaymentRow[]>`
      select line, "taxId", "bankAccount", amount, "amountRaw", currency, reference, name
      from (
        select *, sum(text) over (order by line rows unbounded preceding) - text as before
        from (
          select line, tax_id as "taxId", bank_account as "bankAccount", amount::text as amount,
                 amount_raw as "amountRaw", currency, reference, name,
                 length(bank_account) + coalesce(length(tax_id), 0) + coalesce(length(amount_raw), 0)
                   + coalesce(length(reference), 0) + coalesce(length(name), 0) as text
          from ${sql.t.payment_checks}
          where batch_id = ${batchId}::uuid and line > ${after}
          order by line limit ${size}
        ) next_rows
      ) counted
      where before < ${maxText}
      order by line`;
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.line;
  }
}

/** Forgets a held upload without reading it back (its check was refused before it began). */
export async function dropHeldUpload(sql: Sql, id: string, by: string): Promise<void> {
  await sql`delete from ${sql.t.held_uploads} where id = ${id}::uuid and held_by = ${by}`;
}

/**
 * What the console's payment upload keeps between requests (migration 0041): column choices for
 * headers the reader did not recognise, uploads waiting for such a choice, and the stored rows of
 * a batch read back to be checked again.
 */
import type { Sql } from "../../db/connect.ts";

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

/** Keeps an upload for its uploader; uploads held for more than a day go first. */
export async function holdUpload(
  sql: Sql,
  upload: { fileName: string; body: Buffer; options: Record<string, unknown>; by: string },
): Promise<string> {
  await sql`delete from ${sql.t.held_uploads} where held_at < now() - interval '1 day'`;
  const [row] = await sql<{ id: string }[]>`
    insert into ${sql.t.held_uploads} (file_name, body, options, held_by)
    values (${upload.fileName}, ${upload.body}, ${sql.json(upload.options as never)}, ${upload.by})
    returning id::text`;
  return row!.id;
}

export interface HeldUpload {
  fileName: string;
  body: Buffer;
  options: Record<string, unknown>;
}

/** The upload, removed from the table; undefined when it is gone or another user holds it. */
export async function takeHeldUpload(sql: Sql, id: string, by: string): Promise<HeldUpload | undefined> {
  const [row] = await sql<HeldUpload[]>`
    delete from ${sql.t.held_uploads} where id = ${id}::uuid and held_by = ${by} and held_at >= now() - interval '1 day'
    returning file_name as "fileName", body, options`;
  return row;
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

/** Every stored row of a batch, in line order, `size` at a time. */
export async function* storedBatchRows(
  sql: Sql,
  batchId: string,
  size: number,
): AsyncGenerator<StoredPaymentRow[]> {
  let after = 0;
  for (;;) {
    const rows = await sql<StoredPaymentRow[]>`
      select line, tax_id as "taxId", bank_account as "bankAccount", amount::text as amount,
             amount_raw as "amountRaw", currency, reference, name
      from ${sql.t.payment_checks} where batch_id = ${batchId}::uuid and line > ${after}
      order by line limit ${size}`;
    if (rows.length === 0) return;
    yield rows;
    after = rows[rows.length - 1]!.line;
    if (rows.length < size) return;
  }
}

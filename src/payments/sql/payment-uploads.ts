/**
 * What the console's payment upload keeps between requests (migration 0041): column choices for
 * headers the reader did not recognise, uploads waiting for such a choice, and the stored rows of
 * a batch read back to be checked again.
 */
import type { Sql } from "../../db/connect.ts";

export type ColumnChoice = Partial<Record<string, string>>;

export async function readColumnChoice(sql: Sql, signature: string): Promise<ColumnChoice | undefined> {
  const [row] = await sql<{ columns: ColumnChoice }[]>`
    select columns from ${sql.t.payment_column_choices} where signature = ${signature}`;
  return row?.columns;
}

export async function saveColumnChoice(
  sql: Sql,
  choice: { signature: string; headers: readonly string[]; columns: ColumnChoice; by: string },
): Promise<void> {
  await sql`
    insert into ${sql.t.payment_column_choices} (signature, headers, columns, chosen_by)
    values (${choice.signature}, ${choice.headers as string[]}, ${sql.json(choice.columns as never)}, ${choice.by})
    on conflict (signature) do update
      set headers = excluded.headers, columns = excluded.columns, chosen_by = excluded.chosen_by, chosen_at = now()`;
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

/**
 * Recorded payment checks (`payments check --record`, console uploads): the batch row, written
 * first and finished at the end, and the checked rows, one insert per chunk, all in one
 * transaction (recordPaymentBatch). Rows are passed
 * as column arrays through unnest, so a chunk of any size is one statement with a fixed number
 * of parameters. Text arrives already made safe for spreadsheets; this layer only stores it.
 */
import type { Sql, Tx } from "../../db/connect.ts";

export interface PaymentBatchStart {
  checkedBy: string | null;
  source: "cli" | "web";
  fileName: string | null;
  encoding: string;
  delimiter: string;
  checkedOn: string;
  holdDays: number;
  /** The batch whose stored rows this check repeats (the console's Check again). */
  recheckedFrom?: string | null;
  /** Field -> header read for it (a re-check, with null, keeps the checked batch's). */
  readColumns?: Partial<Record<string, string>> | null;
  ignoredColumns?: readonly string[];
  /** The remembered column choice used: who made it and when. */
  columnsChosen?: { by: string; at: Date } | null;
  /** The held upload offered for a column choice. */
  columnsOffer?: string | null;
  /** The checked file's size and SHA-256 (a re-check, with null, keeps the checked batch's). */
  file?: { size: number; sha256: string } | null;
}

export interface PaymentBatchTotal {
  currency: string;
  amount: string;
  rows: number;
  held: string;
  held_rows: number;
}

export interface PaymentBatchEnd {
  rowCount: number;
  heldCount: number;
  totals: readonly PaymentBatchTotal[];
}

export interface PaymentCheckRecord {
  line: number;
  taxId: string | null;
  bankAccount: string;
  verdict: string;
  detail: string | null;
  nextStep: string | null;
  amount: string | null;
  currency: string | null;
  reference: string | null;
  taxBase: string | null;
  payeeFoundBy: string | null;
  name: string | null;
  registryName: string | null;
  amountRaw: string | null;
  verifiedBy: string | null;
  verifiedOn: string | null;
  /** The detail's sentences and the next step as codes and values, JSON text (migration 0045). */
  detailSaid?: string | null;
  nextStepSaid?: string | null;
}

/**
 * Records a batch in one transaction: the batch row, every chunk `body` gives to `insert`, and
 * its end, committed together once `body` resolves; anything thrown (or the connection lost)
 * rolls all of it back, so no batch is ever left half recorded. `body` gets the batch's id.
 */
export async function recordPaymentBatch<T>(
  sql: Sql,
  batch: PaymentBatchStart,
  body: (recording: {
    id: string;
    insert(rows: readonly PaymentCheckRecord[]): Promise<void>;
  }) => Promise<{ value: T; end: PaymentBatchEnd }>,
): Promise<T> {
  return (await sql.begin(async (tx) => {
    const id = await startPaymentBatch(tx, batch);
    const { value, end } = await body({ id, insert: (rows) => insertPaymentChecks(tx, id, rows) });
    await finishPaymentBatch(tx, id, end);
    return value;
  })) as T;
}

/** Opens a batch; returns its id. */
export async function startPaymentBatch(sql: Sql | Tx, batch: PaymentBatchStart): Promise<string> {
  const recheckedFrom = batch.recheckedFrom ?? null;
  const readColumns = batch.readColumns
    ? sql.json(batch.readColumns as Parameters<typeof sql.json>[0])
    : null;
  const ignored = (batch.ignoredColumns ?? []) as string[];
  const chosen = batch.columnsChosen ?? null;
  const [row] = await sql<{ id: string }[]>`
    insert into ${sql.t.payment_batches}
      (checked_by, source, file_name, encoding, delimiter, checked_on, hold_days, rechecked_from,
       read_columns, ignored_columns, columns_chosen_by, columns_chosen_at, columns_offer,
       file_size, file_sha256)
    select ${batch.checkedBy}, ${batch.source}, ${batch.fileName}, ${batch.encoding}, ${batch.delimiter},
           ${batch.checkedOn}, ${batch.holdDays}, ${recheckedFrom}::uuid,
           coalesce(${readColumns}::jsonb, o.read_columns),
           case when ${recheckedFrom}::uuid is null then ${ignored}::text[] else o.ignored_columns end,
           coalesce(${chosen?.by ?? null}, o.columns_chosen_by), coalesce(${chosen?.at ?? null}::timestamptz, o.columns_chosen_at),
           ${batch.columnsOffer ?? null}::uuid,
           coalesce(${batch.file?.size ?? null}::bigint, o.file_size),
           coalesce(${batch.file?.sha256 ?? null}::text, o.file_sha256)
    from (select 1) one
    left join ${sql.t.payment_batches} o on o.id = ${recheckedFrom}::uuid
    returning id::text`;
  return row!.id;
}

/** Adds one chunk's checked rows to a batch, in one statement. */
export async function insertPaymentChecks(
  sql: Sql | Tx,
  batchId: string,
  rows: readonly PaymentCheckRecord[],
): Promise<void> {
  if (rows.length === 0) return;
  const column = <K extends keyof PaymentCheckRecord>(key: K) => rows.map((r) => r[key] ?? null);
  await sql`
    insert into ${sql.t.payment_checks}
      (batch_id, line, tax_id, bank_account, verdict, detail, next_step, amount, currency, reference,
       tax_base, payee_found_by, name, registry_name, amount_raw, verified_by, verified_on,
       detail_said, next_step_said)
    select ${batchId}::uuid, * from unnest(
      ${column("line") as number[]}::int[], ${column("taxId") as string[]}::text[],
      ${column("bankAccount")}::text[], ${column("verdict")}::text[], ${column("detail") as string[]}::text[],
      ${column("nextStep") as string[]}::text[], ${column("amount") as string[]}::numeric[],
      ${column("currency") as string[]}::text[], ${column("reference") as string[]}::text[],
      ${column("taxBase") as string[]}::text[], ${column("payeeFoundBy") as string[]}::text[],
      ${column("name") as string[]}::text[], ${column("registryName") as string[]}::text[],
      ${column("amountRaw") as string[]}::text[], ${column("verifiedBy") as string[]}::text[],
      ${column("verifiedOn") as string[]}::date[], ${column("detailSaid") as string[]}::jsonb[],
      ${column("nextStepSaid") as string[]}::jsonb[])`;
}

/** Closes a batch with its counts and totals. */
export async function finishPaymentBatch(
  sql: Sql | Tx,
  batchId: string,
  end: PaymentBatchEnd,
): Promise<void> {
  await sql`
    update ${sql.t.payment_batches}
    set finished_at = now(), row_count = ${end.rowCount}, held_count = ${end.heldCount},
        totals = ${sql.json(end.totals as unknown as Parameters<typeof sql.json>[0])}
    where id = ${batchId}::uuid`;
  await keepGivenNames(sql, batchId);
}

/**
 * The payee names the batch's file gave its businesses, kept as given names (source `file
 * <base name>`, as `watch import` keeps a list's names): shown, marked as given, wherever the
 * registry has not named the business yet. The first row of a business names it; a later batch
 * of the same file name replaces the name.
 */
async function keepGivenNames(sql: Sql | Tx, batchId: string): Promise<void> {
  await sql`
    insert into ${sql.t.given_names} (tax_id, source, name)
    select distinct on (c.tax_base) c.tax_base, 'file ' || f.base, left(btrim(c.name), 500)
    from ${sql.t.payment_checks} c
    join ${sql.t.payment_batches} b on b.id = c.batch_id
    cross join lateral (select regexp_replace(b.file_name, '^.*[/\\\\]', '') as base) f
    where c.batch_id = ${batchId}::uuid and btrim(f.base) <> ''
      and c.tax_base ~ '^[0-9]{8}$' and nullif(btrim(c.name), '') is not null
    order by c.tax_base, c.line
    on conflict (tax_id, source) do update set name = excluded.name, given_at = now()`;
}

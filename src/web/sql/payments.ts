/**
 * What the console's payment pages read from recorded checks: the recent batches, one batch with
 * its verdict counts, its rows page by page or through a cursor (the downloads), and the checks
 * that named one business (the business page).
 */
import type { Sql } from "../../db/connect.ts";
import { batchColumns, type PaymentBatchRow } from "../../payments/sql/batch-row.ts";

export type { BatchTotal, PaymentBatchRow } from "../../payments/sql/batch-row.ts";

/** Batches newest first; one row more than `limit` to tell whether another page follows. */
export async function readRecentBatches(
  sql: Sql,
  page: { limit: number; offset: number },
): Promise<PaymentBatchRow[]> {
  return sql<PaymentBatchRow[]>`
    select ${batchColumns(sql)} from ${sql.t.payment_batches}
    order by checked_at desc, id
    limit ${page.limit + 1} offset ${page.offset}`;
}

export async function readBatch(sql: Sql, id: string): Promise<PaymentBatchRow | undefined> {
  const [row] = await sql<PaymentBatchRow[]>`
    select ${batchColumns(sql)} from ${sql.t.payment_batches} where id = ${id}::uuid`;
  return row;
}

/** How many rows of the batch got each verdict. */
export async function readBatchVerdictCounts(
  sql: Sql,
  id: string,
): Promise<{ verdict: string; count: number }[]> {
  return sql<{ verdict: string; count: number }[]>`
    select verdict, count(*)::int as count from ${sql.t.payment_checks}
    where batch_id = ${id}::uuid group by verdict order by verdict`;
}

export interface PaymentCheckRow {
  batchId: string;
  checkedAt: Date;
  line: number;
  taxId: string | null;
  taxBase: string | null;
  payeeFoundBy: string | null;
  name: string | null;
  registryName: string | null;
  bankAccount: string;
  verdict: string;
  detail: string | null;
  nextStep: string | null;
  amount: string | null;
  amountRaw: string | null;
  currency: string | null;
  reference: string | null;
  verifiedBy: string | null;
  verifiedOn: string | null;
  /** The detail's sentences and the next step as codes and values; null on rows recorded before 0045. */
  detailSaid: unknown;
  nextStepSaid: unknown;
}

const CHECK_COLUMNS = (sql: Sql) => sql`
  c.batch_id as "batchId", c.checked_at as "checkedAt", c.line, c.tax_id as "taxId", c.tax_base as "taxBase",
  c.payee_found_by as "payeeFoundBy", c.name, c.registry_name as "registryName", c.bank_account as "bankAccount",
  c.verdict, c.detail, c.next_step as "nextStep", c.amount::text as amount, c.amount_raw as "amountRaw",
  c.currency, c.reference, c.verified_by as "verifiedBy", to_char(c.verified_on, 'YYYY-MM-DD') as "verifiedOn",
  c.detail_said as "detailSaid", c.next_step_said as "nextStepSaid"`;

/**
 * The batch's rows in file order (`held` first: every verdict but ok and not_watched), not yet
 * run: awaited with `page` it gives one page (one row more than the limit), `.cursor(n)` streams.
 */
export function batchChecksQuery(
  sql: Sql,
  id: string,
  options: { heldOnly?: boolean; page?: { limit: number; offset: number } } = {},
) {
  return sql<PaymentCheckRow[]>`
    select ${CHECK_COLUMNS(sql)} from ${sql.t.payment_checks} c
    where c.batch_id = ${id}::uuid
      ${options.heldOnly ? sql`and c.verdict not in ('ok', 'not_watched')` : sql``}
    order by c.line, c.id
    ${options.page ? sql`limit ${options.page.limit + 1} offset ${options.page.offset}` : sql``}`;
}

/** The newest checks whose payee was this business, with the batch's who and when. */
export async function readBusinessPaymentChecks(
  sql: Sql,
  taxBase: string,
  limit: number,
): Promise<(PaymentCheckRow & { checkedBy: string | null; fileName: string | null })[]> {
  return sql<(PaymentCheckRow & { checkedBy: string | null; fileName: string | null })[]>`
    select ${CHECK_COLUMNS(sql)}, b.checked_by as "checkedBy", b.file_name as "fileName"
    from ${sql.t.payment_checks} c
    join ${sql.t.payment_batches} b on b.id = c.batch_id
    -- Rows recorded before migration 0023 have no tax_base: their tax id as written names the payee.
    where c.tax_base = ${taxBase} or (c.tax_base is null and substring(c.tax_id from '^(\\d{8})(-\\d-\\d{2})?$') = ${taxBase})
    order by c.checked_at desc, c.id desc
    limit ${limit}`;
}

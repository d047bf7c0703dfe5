/**
 * What a batch's evidence report reads: the batch, its rows, and for each payee the registry
 * evidence and confirmations that existed when the batch was checked (nothing later), so the same
 * batch reads the same whenever its report is made. Every list is in a fixed order.
 */
import type { Sql } from "../../db/connect.ts";
import { batchColumns, type PaymentBatchRow } from "./batch-row.ts";

/** The batch as the report reads it: the console's shape of a batch. */
export type ReportBatch = PaymentBatchRow;

export interface ReportRow {
  line: number;
  taxId: string | null;
  taxBase: string | null;
  name: string | null;
  registryName: string | null;
  bankAccount: string;
  verdict: string;
  detail: string | null;
  nextStep: string | null;
  detailSaid: unknown;
  nextStepSaid: unknown;
  amount: string | null;
  amountRaw: string | null;
  currency: string | null;
}

export interface ReportPayee {
  taxId: string;
  name: string | null;
  /** When the newest search record read by the check's time was read. */
  recordReadAt: Date | null;
}

export interface ReportChange {
  taxId: string;
  changeDate: string;
  headings: string[];
  path: string | null;
  fileStatus: string | null;
  seenAt: Date;
}

export interface ReportConfirmation {
  taxId: string;
  account: string;
  by: string;
  at: Date;
  note: string | null;
}

export interface BatchReportData {
  batch: ReportBatch;
  rows: ReportRow[];
  payees: ReportPayee[];
  changes: ReportChange[];
  confirmations: ReportConfirmation[];
}

/** The newest changes of each payee the report names. */
const CHANGES_PER_PAYEE = 5;

/** Everything the report of batch `id` says; undefined when there is no such batch. */
export async function readBatchReportData(sql: Sql, id: string): Promise<BatchReportData | undefined> {
  const [batch] = await sql<ReportBatch[]>`
    select ${batchColumns(sql)}
    from ${sql.t.payment_batches} where id = ${id}::uuid`;
  if (!batch) return undefined;
  const [rows, payees, changes, confirmations] = await Promise.all([
    sql<ReportRow[]>`
      select line, tax_id as "taxId", tax_base as "taxBase", name, registry_name as "registryName",
             bank_account as "bankAccount", verdict, detail, next_step as "nextStep",
             detail_said as "detailSaid", next_step_said as "nextStepSaid", amount::text as amount,
             amount_raw as "amountRaw", currency
      from ${sql.t.payment_checks} where batch_id = ${id}::uuid order by line, id`,
    sql<ReportPayee[]>`
      with ids as (
        select distinct tax_base as tax_id from ${sql.t.payment_checks}
        where batch_id = ${id}::uuid and tax_base is not null)
      select ids.tax_id as "taxId",
             (select max(c.registry_name) from ${sql.t.payment_checks} c
              where c.batch_id = ${id}::uuid and c.tax_base = ids.tax_id) as name,
             greatest(
               (select max(s.seen_at) from ${sql.t.search_bank_accounts} s
                where s.tax_id = ids.tax_id and s.seen_at <= ${batch.checkedAt}),
               (select b.fetched_at from ${sql.t.businesses} b
                where b.tax_id = ids.tax_id and b.fetched_at <= ${batch.checkedAt})) as "recordReadAt"
      from ids order by ids.tax_id`,
    sql<ReportChange[]>`
      select x."taxId", x."changeDate", x.headings, x.path, x."fileStatus", x."seenAt" from (
        select c.tax_id as "taxId", to_char(c.change_date, 'YYYY-MM-DD') as "changeDate",
               c.changed_headings as headings, c.path, f.status as "fileStatus", c.first_seen_at as "seenAt",
               row_number() over (partition by c.tax_id order by c.change_date desc, c.id desc) as n,
               c.id
        from ${sql.t.changes} c
        left join ${sql.t.change_files} f on f.path = c.path
        where c.first_seen_at <= ${batch.checkedAt} and c.tax_id in (
          select tax_base from ${sql.t.payment_checks} where batch_id = ${id}::uuid)
      ) x where x.n <= ${CHANGES_PER_PAYEE}
      order by x."taxId", x."changeDate" desc, x.id desc`,
    sql<ReportConfirmation[]>`
      select v.tax_id as "taxId", v.bank_account as account, v.verified_by as by, v.verified_at as at, v.note
      from ${sql.t.payee_verifications} v
      where v.verified_at <= ${batch.checkedAt} and v.tax_id in (
        select tax_base from ${sql.t.payment_checks} where batch_id = ${id}::uuid)
      order by v.tax_id, v.bank_account, v.verified_at, v.id`,
  ]);
  return {
    batch,
    rows: [...rows],
    payees: [...payees],
    changes: [...changes],
    confirmations: [...confirmations],
  };
}

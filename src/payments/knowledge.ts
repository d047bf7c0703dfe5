/**
 * What the database knows about a batch's payees and accounts, gathered for the verdicts:
 * their facts, watch lists, accounts (v_bank_accounts), the bank_accounts changes whose values
 * are unknown, and when each payee's newest search record was read (for --online).
 */
import type { Database } from "../db/connect.ts";
import {
  loadBankAccounts,
  loadBusinessFacts,
  loadChangeEvidence,
  loadPayeeRecords,
  loadWatchedTaxIds,
} from "../db/payments.ts";
import { isValidTaxId } from "../taxid.ts";
import { parseAccount } from "./accounts.ts";
import { type PaymentRow, taxBaseOfRow } from "./batch-csv.ts";
import type { PayeeRecord } from "./recheck.ts";
import type { Knowledge } from "./verdicts.ts";

/** Canonical accounts of readable rows, in batch order, without repeats. */
export function readableAccounts(rows: readonly PaymentRow[]): string[] {
  const accounts = new Set<string>();
  for (const row of rows) {
    const parsed = parseAccount(row.bankAccount);
    if (parsed.ok && isValidTaxId(taxBaseOfRow(row.taxId))) accounts.add(parsed.account);
  }
  return [...accounts];
}

/** Tax base numbers of the rows that have a valid one, without repeats. */
export function batchTaxIds(rows: readonly PaymentRow[]): string[] {
  return [...new Set(rows.map((r) => taxBaseOfRow(r.taxId)).filter(isValidTaxId))];
}

export async function loadKnowledge(
  db: Database,
  rows: readonly PaymentRow[],
  online: { notes: ReadonlyMap<string, string> } | null,
): Promise<Knowledge> {
  const taxIds = batchTaxIds(rows);
  const accounts = await loadBankAccounts(db.sql, taxIds, readableAccounts(rows));
  // Businesses that hold a batch's account are named in its verdict, so their facts are loaded too.
  const holders = accounts.map((a) => a.taxId);
  const facts = await loadBusinessFacts(db.sql, [...new Set([...taxIds, ...holders])]);
  const watched = new Set(await loadWatchedTaxIds(db.sql, taxIds));
  const changes = await loadChangeEvidence(db.sql, taxIds);
  return {
    businesses: new Map(facts.map((f) => [f.taxId, f])),
    watched,
    accounts,
    changes,
    onlineNotes: online?.notes ?? new Map(),
    online: online !== null,
  };
}

/** The newest search record of each payee of the batch, by tax base number. */
export async function loadPayeeRecordMap(
  db: Database,
  rows: readonly PaymentRow[],
  timeZone: string,
): Promise<Map<string, PayeeRecord>> {
  const records = await loadPayeeRecords(db.sql, batchTaxIds(rows), timeZone);
  return new Map(records.map((r) => [r.taxId, r]));
}

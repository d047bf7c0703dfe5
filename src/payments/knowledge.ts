/**
 * What the database knows about a chunk's payees and accounts, gathered for the verdicts in a
 * fixed handful of queries whatever the chunk's size: their facts and names, watch lists, accounts
 * (v_bank_accounts), the bank_accounts changes whose values are unknown, verifications, and when
 * each payee's newest search record was read (for --online). A row without a tax number brings in
 * the businesses holding its account, since one of them is its payee.
 */
import { addDays } from "../dates.ts";
import type { Database } from "../db/connect.ts";
import { loadLatestVerifications } from "../db/payee-verifications.ts";
import {
  loadBankAccounts,
  loadBusinessFacts,
  loadBusinessNames,
  loadChangeEvidence,
  loadPayeeRecords,
  loadWatchedTaxIds,
} from "../db/payments.ts";
import { parseAccount } from "./accounts.ts";
import type { PaymentRow } from "./batch-row.ts";
import { validRowTaxBase } from "./knowledge-index.ts";
import type { PayeeRecord } from "./recheck.ts";
import { type Knowledge, type KnownBusiness, payeeKey, type Verification } from "./verdicts.ts";

/** Canonical accounts of the rows whose payee can be found (a valid tax number, or none), without repeats. */
export function readableAccounts(rows: readonly PaymentRow[]): string[] {
  const accounts = new Set<string>();
  for (const row of rows) {
    if (row.taxId !== null && validRowTaxBase(row) === null) continue;
    const parsed = parseAccount(row.bankAccount);
    if (parsed.ok) accounts.add(parsed.account);
  }
  return [...accounts];
}

/** Tax base numbers of the rows that have a valid one, without repeats. */
export function batchTaxIds(rows: readonly PaymentRow[]): string[] {
  const out = new Set<string>();
  for (const row of rows) {
    const base = validRowTaxBase(row);
    if (base !== null) out.add(base);
  }
  return [...out];
}

export interface KnowledgeOptions {
  today: string;
  holdDays: number;
  timeZone: string;
  /** --online ran: what it could not settle, by payee key. */
  online: { notes: ReadonlyMap<string, string> } | null;
}

export async function loadKnowledge(
  db: Database,
  rows: readonly PaymentRow[],
  options: KnowledgeOptions,
): Promise<Knowledge> {
  const taxIds = batchTaxIds(rows);
  const accounts = await loadBankAccounts(db.sql, taxIds, readableAccounts(rows));
  // Businesses holding a row's account are named in its verdict, or are its payee when the file gives no tax number.
  const payees = [...new Set([...taxIds, ...accounts.map((a) => a.taxId)])];
  const since = addDays(options.today, -options.holdDays);
  const [facts, names, watched, changes, verifications] = await Promise.all([
    loadBusinessFacts(db.sql, payees),
    loadBusinessNames(db.sql, payees, since),
    loadWatchedTaxIds(db.sql, payees),
    loadChangeEvidence(db.sql, payees),
    loadLatestVerifications(db.sql, payees, options.timeZone),
  ]);
  const namesOf = new Map<string, string[]>();
  for (const n of names) {
    const list = namesOf.get(n.taxId);
    if (list) list.push(n.name);
    else namesOf.set(n.taxId, [n.name]);
  }
  const businesses = new Map<string, KnownBusiness>(
    facts.map((f) => [f.taxId, { ...f, names: namesOf.get(f.taxId)?.sort() ?? [] }]),
  );
  return {
    businesses,
    watched: new Set(watched),
    accounts,
    changes,
    onlineNotes: options.online?.notes ?? new Map(),
    online: options.online !== null,
    verifications: new Map(
      verifications.map((v): [string, Verification] => [
        payeeKey(v.taxId, v.account),
        { taxId: v.taxId, account: v.account, by: v.verifiedBy, on: v.verifiedOn, note: v.note },
      ]),
    ),
  };
}

/** The newest search record of each business, by tax base number. */
export async function loadPayeeRecordMap(
  db: Database,
  taxIds: readonly string[],
  timeZone: string,
): Promise<Map<string, PayeeRecord>> {
  const records = await loadPayeeRecords(db.sql, taxIds, timeZone);
  return new Map(records.map((r) => [r.taxId, r]));
}

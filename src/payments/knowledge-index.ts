/**
 * What is known of a chunk, indexed for the verdicts (pure): accounts by business and by account,
 * unverified changes and names by business, so judging a row costs a few map lookups however
 * large the chunk. Also who a row pays: the business its tax number names, or, when the file
 * gives none, the business that holds its account in the data regwatch has.
 */

import { type PaymentRow, rowTaxBase, taxBaseOfRow } from "../formats/batch-row.ts";
import { type ParsedAccount, parseAccount } from "./accounts.ts";
import type { Knowledge, KnowledgeIndex, KnownAccount } from "./verdict-terms.ts";

export type { KnowledgeIndex };

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** The index `knowledge` came with (loadKnowledge builds it from the batch's cache), else one made from its lists. */
export function indexKnowledge(knowledge: Knowledge): KnowledgeIndex {
  if (knowledge.index) return knowledge.index;
  return {
    byTaxId: groupBy(knowledge.accounts, (a) => a.taxId),
    byAccount: groupBy(knowledge.accounts, (a) => a.account),
    changesByTaxId: groupBy(knowledge.changes, (c) => c.taxId),
  };
}

/**
 * Accounts as written, parsed: a batch pays the same accounts again and again. Bounded in entries,
 * and in their size: a cell longer than any account as people write it is parsed, never kept.
 */
const parsedAccounts = new Map<string, ParsedAccount>();
const PARSED_LIMIT = 100_000;
const KEPT_CHARS = 100;

/** parseAccount, remembered per account as written. */
export function parseAccountOnce(raw: string): ParsedAccount {
  let parsed = parsedAccounts.get(raw);
  if (parsed === undefined) {
    if (parsedAccounts.size >= PARSED_LIMIT) parsedAccounts.clear();
    parsed = parseAccount(raw);
    if (raw.length <= KEPT_CHARS) parsedAccounts.set(raw, parsed);
  }
  return parsed;
}

/** Businesses that currently hold the account, each once, in the order found. */
export function currentHolders(index: KnowledgeIndex, account: string): string[] {
  const holders = (index.byAccount.get(account) ?? []).filter((a) => a.currentlyRegistered);
  return [...new Set(holders.map((a) => a.taxId))];
}

/** The account `acct` among a business's own, when registered to it now (a loop: no closure per row). */
export function registeredOwn(own: readonly KnownAccount[], acct: string): KnownAccount | undefined {
  for (const a of own) if (a.currentlyRegistered && a.account === acct) return a;
  return undefined;
}

/** Businesses that held the account once but no longer do. */
export function formerHolders(index: KnowledgeIndex, account: string): string[] {
  const current = new Set(currentHolders(index, account));
  const all = (index.byAccount.get(account) ?? []).map((a) => a.taxId);
  return [...new Set(all)].filter((t) => !current.has(t));
}

export type Payee =
  | { by: "tax_id"; taxBase: string }
  | { by: "account"; taxBase: string }
  /** No tax number in the file and no single current holder of the account. */
  | { by: "none"; holders: string[]; former: string[] };

/**
 * Who the row pays. With a tax number, its base (valid or not: the verdict says); without one,
 * the one business currently holding the (canonical) account; `account` null when unreadable.
 */
export function payeeOf(row: PaymentRow, account: string | null, index: KnowledgeIndex): Payee {
  return payeeByBase(row.taxId === null ? null : taxBaseOfRow(row.taxId), account, index);
}

/** payeeOf for a row whose tax number's base is known already (null: the row gives none). */
export function payeeByBase(taxBase: string | null, account: string | null, index: KnowledgeIndex): Payee {
  if (taxBase !== null) return { by: "tax_id", taxBase };
  if (account === null) return { by: "none", holders: [], former: [] };
  const holders = currentHolders(index, account);
  if (holders.length === 1) return { by: "account", taxBase: holders[0]! };
  return { by: "none", holders, former: holders.length === 0 ? formerHolders(index, account) : [] };
}

/** The tax base a row's tax number names, when it is valid; null without a tax number. */
export function validRowTaxBase(row: PaymentRow): string | null {
  if (row.taxId === null) return null;
  const read = rowTaxBase(row.taxId);
  return read.valid ? read.base : null;
}

/**
 * What the knowledge reads and the verdict ask of a row, worked out once per row of a chunk
 * rather than looked up again by each (the tax base, its validity, the account parsed).
 */
export interface PreparedRow {
  readonly row: PaymentRow;
  /** The base the row's tax number names, valid or not; null when the row gives none. */
  readonly taxBase: string | null;
  /** The same when it is a valid tax base number, else null. */
  readonly validBase: string | null;
  readonly account: ParsedAccount;
}

export function prepareRow(row: PaymentRow): PreparedRow {
  const read = row.taxId === null ? null : rowTaxBase(row.taxId);
  return {
    row,
    taxBase: read === null ? null : read.base,
    validBase: read?.valid ? read.base : null,
    account: parseAccountOnce(row.bankAccount),
  };
}

export function prepareRows(rows: readonly PaymentRow[]): PreparedRow[] {
  return rows.map(prepareRow);
}

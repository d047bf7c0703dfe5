/**
 * What the database knows about a chunk's payees and accounts, gathered for the verdicts in a
 * fixed handful of queries whatever the chunk's size (and kept for the batch's later chunks):
 * their facts and names, watch lists, accounts (v_bank_accounts), the bank_accounts changes whose
 * values are unknown, verifications, and when each payee's newest search record was read (for
 * --online). A row without a tax number brings in the businesses holding its account, since one
 * of them is its payee.
 */

import { type ChangeEvidence, reasonError } from "../changes/evidence.ts";
import { unreadReason, unreadWhy } from "../changes/unread.ts";
import { addDays } from "../dates.ts";
import type { Database } from "../db/connect.ts";
import type { Said } from "../said.ts";
import type { KnowledgeIndex, PreparedRow } from "./knowledge-index.ts";
import type { PayeeRecord } from "./recheck.ts";
import {
  loadAccountHolders,
  loadBankAccountsOf,
  loadBusinessFacts,
  loadBusinessNames,
  loadChangeEvidence,
  loadPayeeRecords,
  loadWatchedTaxIds,
  withCheckReads,
} from "./sql/evidence.ts";
import { loadLatestVerifications } from "./sql/payee-verifications.ts";
import { loadUnreadHeadings } from "./sql/unread-headings.ts";
import { VerdictMemo } from "./verdict-memo.ts";
import {
  type Knowledge,
  type KnownAccount,
  type KnownBusiness,
  payeeKey,
  type UnreadHeading,
  type Verification,
} from "./verdicts.ts";

/** Canonical accounts of the rows whose payee can be found (a valid tax number, or none), without repeats. */
export function readableAccounts(rows: readonly PreparedRow[]): string[] {
  const accounts = new Set<string>();
  for (const p of rows) {
    if (p.taxBase !== null && p.validBase === null) continue;
    if (p.account.ok) accounts.add(p.account.account);
  }
  return [...accounts];
}

/** Tax base numbers of the rows that have a valid one, without repeats. */
export function batchTaxIds(rows: readonly PreparedRow[]): string[] {
  const out = new Set<string>();
  for (const p of rows) if (p.validBase !== null) out.add(p.validBase);
  return [...out];
}

export interface KnowledgeOptions {
  today: string;
  holdDays: number;
  timeZone: string;
  /** --online ran: what it could not settle, by payee key. */
  online: { notes: ReadonlyMap<string, Said> } | null;
}

/** What is known of one business, as the check reads it. */
interface BusinessEntry {
  facts: KnownBusiness | null;
  unread: UnreadHeading[];
  accounts: KnownAccount[];
  watched: boolean;
  changes: ChangeEvidence[];
  verifications: Verification[];
}

/**
 * What a batch has read of its payees and accounts, kept from chunk to chunk so a supplier paid
 * in every chunk is read once: the businesses holding each account, and each business's facts,
 * names, accounts, changes and verifications. Bounded: past `limit` businesses the oldest are
 * dropped (and read again if a later chunk needs them). One per batch: what it holds is the
 * database as the batch's check began to read it.
 */
export class KnowledgeCache {
  readonly holders = new Map<string, string[]>();
  readonly businesses = new Map<string, BusinessEntry>();
  /** The verdicts given from what is kept here, for rows that repeat a payee (verdict-memo.ts). */
  readonly verdicts = new VerdictMemo();

  constructor(readonly limit = 10_000) {}

  /** Drops what is kept of these businesses and accounts (the online check saved newer records). */
  forget(taxIds: Iterable<string>, accounts: Iterable<string>): void {
    for (const t of taxIds) this.businesses.delete(t);
    for (const a of accounts) this.holders.delete(a);
    this.verdicts.clear();
  }

  trim(): void {
    dropOldest(this.businesses, this.limit);
    dropOldest(this.holders, this.limit * 2);
  }
}

function dropOldest<K, V>(map: Map<K, V>, limit: number): void {
  if (map.size <= limit) return;
  let excess = map.size - limit;
  for (const key of map.keys()) {
    if (excess-- <= 0) break;
    map.delete(key);
  }
}

/** Above this many businesses to read, the account histories are read in two halves at once. */
const SPLIT_ABOVE = 1000;
/**
 * Above this many accounts, their holders are looked up in two halves at once: each account is a
 * few index searches (about 0.2 ms each on a 2-core machine), and a cold chunk waits for them.
 */
const SPLIT_HOLDERS_ABOVE = 250;

/** `items` in two halves when there are more than `above`, else as one part; none when empty. */
function halvesOf<T>(items: T[], above: number): T[][] {
  if (items.length === 0) return [];
  return items.length > above ? [items.slice(0, items.length >> 1), items.slice(items.length >> 1)] : [items];
}

/**
 * Reads into the cache what it lacks of these accounts' holders and of the payees, and returns
 * the payees (the tax ids and the accounts' holders). The businesses the rows name by tax number
 * are read while the accounts' holders are looked up (most rows name theirs; the holders' lookup
 * is a chunk's slowest read), then those holders the rows did not name. Each read is a read-only
 * transaction of its own (withCheckReads).
 */
async function fill(
  db: Database,
  cache: KnowledgeCache,
  taxIds: string[],
  accounts: string[],
  options: KnowledgeOptions,
): Promise<Set<string>> {
  const newAccounts = accounts.filter((a) => !cache.holders.has(a));
  const named = taxIds.filter((t) => !cache.businesses.has(t));
  const [found, namedEntries] = await Promise.all([
    Promise.all(
      halvesOf(newAccounts, SPLIT_HOLDERS_ABOVE).map((half) =>
        withCheckReads(db.sql, options.timeZone, (sql) => loadAccountHolders(sql, half)),
      ),
    ).then((r) => r.flat()),
    readEntries(db, named, options),
  ]);
  for (const a of newAccounts) cache.holders.set(a, []);
  for (const h of found) {
    const list = cache.holders.get(h.account)!;
    if (!list.includes(h.taxId)) list.push(h.taxId);
  }
  for (const [t, e] of namedEntries) cache.businesses.set(t, e);
  // Businesses holding a row's account are named in its verdict, or are its payee when the file gives no tax number.
  // Built by loops rather than spread arrays: this runs for every chunk, mostly on what the cache holds.
  const payees = new Set(taxIds);
  for (const a of accounts) for (const holder of cache.holders.get(a) ?? []) payees.add(holder);
  const missing: string[] = [];
  for (const t of payees) if (!cache.businesses.has(t)) missing.push(t);
  for (const [t, e] of await readEntries(db, missing, options)) cache.businesses.set(t, e);
  return payees;
}

/**
 * What the database knows of these businesses, one entry each. The account histories, by far the
 * dearest read, go in parallel with the rest (and in two halves when large).
 */
async function readEntries(
  db: Database,
  missing: string[],
  options: KnowledgeOptions,
): Promise<Map<string, BusinessEntry>> {
  if (missing.length === 0) return new Map();
  const since = addDays(options.today, -options.holdDays);
  const halves = halvesOf(missing, SPLIT_ABOVE);
  const [pairs, [facts, names, watched, changes, verifications, unread]] = await Promise.all([
    Promise.all(
      halves.map((half) => withCheckReads(db.sql, options.timeZone, (sql) => loadBankAccountsOf(sql, half))),
    ).then((r) => r.flat()),
    withCheckReads(db.sql, options.timeZone, (sql) =>
      Promise.all([
        loadBusinessFacts(sql, missing, options.timeZone),
        loadBusinessNames(sql, missing, since),
        loadWatchedTaxIds(sql, missing),
        loadChangeEvidence(sql, missing),
        loadLatestVerifications(sql, missing, options.timeZone),
        loadUnreadHeadings(sql, missing),
      ]),
    ),
  ]);
  const entries = new Map<string, BusinessEntry>(
    missing.map((t) => [
      t,
      { facts: null, unread: [], accounts: [], watched: false, changes: [], verifications: [] },
    ]),
  );
  const entry = (taxId: string) => entries.get(taxId);
  for (const p of pairs) entry(p.taxId)?.accounts.push(p);
  const namesOf = new Map<string, string[]>();
  for (const n of names) namesOf.set(n.taxId, [...(namesOf.get(n.taxId) ?? []), n.name]);
  for (const f of facts) {
    const e = entry(f.taxId);
    if (e) e.facts = { ...f, names: namesOf.get(f.taxId)?.sort() ?? [], unread: e.unread };
  }
  for (const t of watched) {
    const e = entry(t);
    if (e) e.watched = true;
  }
  for (const c of changes) entry(c.taxId)?.changes.push(c);
  for (const u of unread)
    entry(u.taxId)?.unread.push({
      heading: u.heading,
      since: u.since,
      why: unreadWhy(u.heading, u),
      reason: unreadReason(u),
      error: reasonError(unreadReason(u), u),
    });
  for (const v of verifications) {
    entry(v.taxId)?.verifications.push({
      taxId: v.taxId,
      account: v.account,
      by: v.verifiedBy,
      on: v.verifiedOn,
      note: v.note,
    });
  }
  return entries;
}

/**
 * What is known of a chunk's payees and accounts: read in a fixed handful of statements for what
 * `cache` does not already hold (a fresh cache when none is given), then put together for the
 * chunk, indexed: a business's accounts and changes are the lists the cache keeps for it, not
 * regrouped chunk after chunk.
 */
export async function loadKnowledge(
  db: Database,
  rows: readonly PreparedRow[],
  options: KnowledgeOptions,
  cache: KnowledgeCache = new KnowledgeCache(),
): Promise<Knowledge> {
  const taxIds = batchTaxIds(rows);
  const accounts = readableAccounts(rows);
  const payees = await fill(db, cache, taxIds, accounts, options);
  const businesses = new Map<string, KnownBusiness>();
  const watched = new Set<string>();
  const known: KnownAccount[] = [];
  const changes: ChangeEvidence[] = [];
  const verifications = new Map<string, Verification>();
  const byTaxId = new Map<string, readonly KnownAccount[]>();
  const byAccount = new Map<string, KnownAccount[]>();
  const changesByTaxId = new Map<string, readonly ChangeEvidence[]>();
  for (const taxId of payees) {
    const e = cache.businesses.get(taxId);
    if (!e) continue;
    if (e.facts) businesses.set(taxId, e.facts);
    if (e.watched) watched.add(taxId);
    // Every account and change of the entry is the business's own (fill groups them so).
    if (e.accounts.length > 0) byTaxId.set(taxId, e.accounts);
    for (const a of e.accounts) {
      known.push(a);
      const holders = byAccount.get(a.account);
      if (holders) holders.push(a);
      else byAccount.set(a.account, [a]);
    }
    if (e.changes.length > 0) changesByTaxId.set(taxId, e.changes);
    for (const c of e.changes) changes.push(c);
    for (const v of e.verifications) verifications.set(payeeKey(v.taxId, v.account), v);
  }
  cache.trim();
  return {
    businesses,
    watched,
    accounts: known,
    changes,
    onlineNotes: options.online?.notes ?? new Map(),
    online: options.online !== null,
    verifications,
    index: { byTaxId, byAccount, changesByTaxId } satisfies KnowledgeIndex,
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

/**
 * Verdicts kept per payee for the rest of a batch (pure): real batches pay the same suppliers
 * again and again, and when nothing particular to a row enters its verdict, a row with the same
 * tax base, account and name as an earlier one gets the same verdict, detail and next step.
 * What the memo keys on is everything judgeRow reads of a row but its amount; rows whose amount
 * has something to say (its detail names the amount) are judged afresh, and so is every row
 * of a check with --online (what it asked and could not settle belongs to the chunk).
 *
 * It holds for one batch, whose knowledge is read once per payee and account (KnowledgeCache)
 * with the same day, hold period and wording throughout; a change of those empties it, and so
 * does the cache forgetting what it read. Bounded: past LIMIT entries, or LIMIT_TEXT characters
 * of text kept (a wide row's name and verdict are kept whole), it starts again.
 */
import type { ParsedAccount } from "./accounts.ts";
import { indexKnowledge, type KnowledgeIndex, type PreparedRow } from "./knowledge-index.ts";
import { amountProblem } from "./verdict-details.ts";
import { checkedRow } from "./verdict-row.ts";
import {
  type CheckedRow,
  type JudgeOptions,
  judgeRow,
  type Knowledge,
  type KnownAccount,
  type KnownBusiness,
} from "./verdicts.ts";

const LIMIT = 20_000;
/** 8 Mi characters: a few thousand ordinary rows' worth, a hundred-odd of the widest. */
const LIMIT_TEXT = 8 * 1024 * 1024;
/** Stands for a null field in a key: no field holds a NUL (the reader refuses the line). */
const NULL = "\u0000";

/**
 * A verdict and what it was given from that a chunk may see otherwise: the account's holders are
 * those among the chunk's payees (a business that lists the account in a source the holders' read
 * does not search is one only when paid in the same chunk), and a business read again after the
 * cache let it go is another object. Either differing, the row is judged afresh.
 */
interface Judged {
  checked: CheckedRow;
  holders: readonly KnownAccount[] | undefined;
  business: KnownBusiness | undefined;
}

function sameItems<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The characters of a kept verdict's strings and its name key. */
function textKept(checked: CheckedRow, name: string): number {
  let units = name.length;
  for (const value of Object.values(checked)) if (typeof value === "string") units += value.length;
  return units;
}

/** The map under `key` in `outer`, made when missing. */
function inner<K, K2, V>(outer: Map<K, Map<K2, V>>, key: K): Map<K2, V> {
  let map = outer.get(key);
  if (map === undefined) {
    map = new Map();
    outer.set(key, map);
  }
  return map;
}

export class VerdictMemo {
  /**
   * By account as parsed (parseAccountOnce gives one object per account as written), tax base
   * and name: objects and strings the batch's caches hold already, so a lookup makes no key
   * string and hashes little more than the row's name.
   */
  private readonly judged = new Map<ParsedAccount, Map<string, Map<string, Judged>>>();
  private count = 0;
  private text = 0;
  private options: JudgeOptions | null = null;

  clear(): void {
    this.judged.clear();
    this.count = 0;
    this.text = 0;
  }

  get size(): number {
    return this.count;
  }

  /** judgeBatch with the memo: each row's verdict, reusing an earlier row's where it may. */
  judgeBatch(rows: readonly PreparedRow[], knowledge: Knowledge, options: JudgeOptions): CheckedRow[] {
    const index = indexKnowledge(knowledge);
    return rows.map((p) => this.judge(p, knowledge, options, index));
  }

  /**
   * judgeRow(p.row, ...), or the verdict of an earlier row with the same account, tax base and
   * name (the row's tax number enters its verdict only through its base).
   */
  judge(p: PreparedRow, knowledge: Knowledge, options: JudgeOptions, index: KnowledgeIndex): CheckedRow {
    const { row } = p;
    if (knowledge.online || knowledge.onlineNotes.size > 0 || amountProblem(row) !== undefined) {
      return judgeRow(row, knowledge, options, index, p);
    }
    this.sameOptions(options);
    const base = p.taxBase ?? NULL;
    const name = row.name ?? NULL;
    const holders = p.account.ok ? index.byAccount.get(p.account.account) : undefined;
    const business = p.taxBase === null ? undefined : knowledge.businesses.get(p.taxBase);
    const earlier = this.judged.get(p.account)?.get(base)?.get(name);
    if (earlier !== undefined && earlier.business === business && sameItems(earlier.holders, holders)) {
      return checkedRow(row, earlier.checked);
    }
    const checked = judgeRow(row, knowledge, options, index, p);
    if (this.count >= LIMIT || this.text >= LIMIT_TEXT) this.clear();
    const byName = inner(inner(this.judged, p.account), base);
    if (!byName.has(name)) this.count++;
    this.text += textKept(checked, name);
    byName.set(name, { checked, holders, business });
    return checked;
  }

  private sameOptions(options: JudgeOptions): void {
    const kept = this.options;
    if (
      kept !== null &&
      kept.today === options.today &&
      kept.holdDays === options.holdDays &&
      (kept.acceptUnconfirmed ?? false) === (options.acceptUnconfirmed ?? false) &&
      (kept.voice ?? "cli") === (options.voice ?? "cli")
    )
      return;
    this.clear();
    this.options = { ...options };
  }
}

/**
 * The verdicts of one chunk of a payment batch: what the database knows of the chunk's payees and
 * accounts is read in a handful of queries (src/payments/knowledge.ts), with --online the
 * questions no local source answers are sent to the search interface (within the quota, each
 * question once per batch) and their answers saved, and every row is judged
 * (src/payments/verdicts.ts). The pipeline calls it chunk after chunk, so memory stays bounded.
 */

import type { SearchClient } from "../api/search-client.ts";
import type { Database } from "../db/connect.ts";
import type { PaymentRow } from "../formats/batch-row.ts";
import {
  batchTaxIds,
  KnowledgeCache,
  loadKnowledge,
  loadPayeeRecordMap,
  readableAccounts,
} from "./knowledge.ts";
import { prepareRows } from "./knowledge-index.ts";
import type { StepVoice } from "./next-step.ts";
import type { Ask, AskResult } from "./recheck.ts";
import { type CheckedRow, judgeBatch } from "./verdicts.ts";

/** One per batch: the requests sent, those not sent or failed, and the quota refusal, across chunks. */
export interface OnlineSession {
  readonly asked: number;
  readonly notChecked: number;
  readonly quotaMessage: string | null;
}

class OnlineAsker implements OnlineSession {
  asked = 0;
  notChecked = 0;
  quotaMessage: string | null = null;
  /** Each question's answer, so a payee in several chunks is asked once. */
  private readonly answered = new Map<string, AskResult>();

  constructor(
    private readonly db: Database,
    private readonly client: SearchClient,
  ) {}

  /** Asks what is not answered yet; records found are saved, read on today of `timeZone` (the registry's). */
  async ask(asks: readonly Ask[], timeZone: string): Promise<AskResult[]> {
    const id = (ask: Ask) => `${ask.kind} ${ask.value}`;
    const fresh = asks.filter((ask) => !this.answered.has(id(ask)));
    const [{ askOnline }, { saveBusinesses }] = await Promise.all([
      import("./online.ts"),
      import("../parse/save-businesses.ts"),
    ]);
    const outcome = await askOnline(
      fresh,
      async (ask) => {
        const result = await this.client.search(ask.kind, ask.value);
        await saveBusinesses(this.db.sql, result.records, timeZone);
        return result.records;
      },
      this.quotaMessage,
    );
    for (const [i, ask] of fresh.entries()) this.answered.set(id(ask), outcome.results[i]!);
    this.asked += outcome.asked;
    this.notChecked += outcome.notChecked;
    this.quotaMessage = outcome.quotaMessage;
    return asks.map((ask) => this.answered.get(id(ask))!);
  }
}

/** Starts the online part of a batch; what it reads is saved to the database it is given. */
export function startOnline(db: Database, client: SearchClient): OnlineSession {
  return new OnlineAsker(db, client);
}

export interface ChunkOptions {
  today: string;
  holdDays: number;
  recheckDays: number;
  /** The registry's time zone: days of records and verifications are counted in it. */
  timeZone: string;
  online: OnlineSession | null;
  /** REGWATCH_PAYMENT_ACCEPT_UNCONFIRMED: an account no source has shown passes with a warning. */
  acceptUnconfirmed?: boolean;
  /** Whose words the next steps are in (the console's for an upload). */
  voice?: StepVoice;
  /**
   * What earlier chunks of the batch read (createKnowledgeCache(), one per batch): a payee paid in
   * every chunk is then read once. Without it each chunk reads everything afresh.
   */
  cache?: KnowledgeCache | null;
}

/** One per batch, passed to every chunk's checkChunk (ChunkOptions.cache). */
export function createKnowledgeCache(): KnowledgeCache {
  return new KnowledgeCache();
}

/**
 * Reads into `cache` what the chunk's check will need from the database, judging nothing: the
 * pipeline runs it on the first rows while the rest of the file is still being validated.
 */
export async function warmKnowledge(
  db: Database,
  rows: readonly PaymentRow[],
  options: ChunkOptions & { cache: KnowledgeCache },
): Promise<void> {
  const { today, holdDays, timeZone, cache } = options;
  await loadKnowledge(db, prepareRows(rows), { today, holdDays, timeZone, online: null }, cache);
}

/** Verdicts for one chunk of rows (at most a few thousand), all database reads batched. */
export async function checkChunk(
  db: Database,
  rows: readonly PaymentRow[],
  options: ChunkOptions,
): Promise<CheckedRow[]> {
  const { today, holdDays, timeZone } = options;
  const cache = options.cache ?? new KnowledgeCache();
  // Each row's tax base and account are read once, for the knowledge reads and the verdict alike.
  const prepared = prepareRows(rows);
  let knowledge = await loadKnowledge(db, prepared, { today, holdDays, timeZone, online: null }, cache);
  if (options.online) {
    if (!(options.online instanceof OnlineAsker))
      throw new TypeError("online session not made by startOnline");
    // What only --online needs (the search interface's errors and query rules, and with them the
    // registry's HTTP client in the build's shared chunk) is loaded when it is asked for.
    const { onlineNotes, planAsks } = await import("./recheck.ts");
    const payees = [...new Set([...batchTaxIds(prepared), ...knowledge.accounts.map((a) => a.taxId)])];
    const records = await loadPayeeRecordMap(db, payees, timeZone);
    const asks = planAsks(rows, knowledge, records, today, options.recheckDays);
    const results = await options.online.ask(asks, timeZone);
    const notes = onlineNotes(asks, results);
    if (asks.length > 0) {
      // What the answers saved changes what is known of the chunk's payees and accounts: read them again.
      const saved = results.flatMap((r) => (r.ok ? r.taxIds : []));
      cache.forget([...payees, ...saved], readableAccounts(prepared));
      knowledge = await loadKnowledge(db, prepared, { today, holdDays, timeZone, online: { notes } }, cache);
    } else knowledge = { ...knowledge, online: true };
  }
  const judging = {
    today,
    holdDays,
    acceptUnconfirmed: options.acceptUnconfirmed ?? false,
    voice: options.voice ?? "cli",
  };
  // A payee's repeated rows reuse its verdict, but not with --online: its questions are the chunk's.
  if (options.online) return judgeBatch(prepared, knowledge, judging);
  return cache.verdicts.judgeBatch(prepared, knowledge, judging);
}

/**
 * `--online`: which search requests a batch needs (pure). A payee is re-checked when its newest
 * search record is older than REGWATCH_PAYMENT_RECHECK_DAYS, when it has none, or when a
 * bank_accounts change whose values are unknown is newer than that record: a stale record would
 * otherwise pass on accounts the business may no longer hold. The same goes for a status or name
 * change regwatch could not read (v_unread_headings), which holds the payment as unverified. It is asked by its registration
 * number when one is known, since that answer is the payee's own full record (current accounts,
 * status, name) whatever account the invoice names; asking by the invoice's account would only
 * find who holds that account, and say nothing of the payee when the account is not its own.
 * Without a registration number the row's account is asked. An account no local source knows
 * is asked as before, so its holder can be named; so is the account of a row without a tax number
 * when no local source knows who holds it (the search covers companies only). One request per
 * distinct question.
 */
import { checkRegistrationNumber, type SearchKind } from "../api/search-query.ts";
import { type ChangeEvidence, unknownReason } from "../changes/evidence.ts";
import { addDays } from "../dates.ts";
import type { PaymentRow } from "../formats/batch-row.ts";
import { type Said, said } from "../said.ts";
import { searchValueOf } from "./accounts.ts";
import { detailSaid } from "./detail-said.ts";
import { indexKnowledge, parseAccountOnce, payeeOf, validRowTaxBase } from "./knowledge-index.ts";
import { JUDGED_HEADINGS, type Knowledge, payeeKey, type UnreadHeading } from "./verdicts.ts";

/** The newest search record kept of a business. */
export interface PayeeRecord {
  taxId: string;
  /** Day the newest record was read; null when only other sources know the business. */
  readOn: string | null;
  registrationNumber: string | null;
}

export interface Ask {
  kind: Extract<SearchKind, "reg-number" | "bank-account">;
  value: string;
  /** Payee keys (payeeKey) of the rows this request answers for. */
  keys: string[];
  /** Why the payee needs a fresh record, when that is why it is asked. */
  stale: string | null;
  /** The same as a sentence the console says in its reader's language. */
  staleSaid?: Said | null;
  /** The payee asked by registration number (its record must come back). */
  taxId: string | null;
  /** Asked to find the holder of a row without a tax number. */
  forHolder?: boolean;
}

function staleness(
  taxBase: string,
  record: PayeeRecord | undefined,
  changes: readonly ChangeEvidence[],
  unread: readonly UnreadHeading[],
  today: string,
  recheckDays: number,
): Said | null {
  const open = changes.find((c) => c.taxId === taxBase && !c.superseded && unknownReason(c));
  // A status or name change that could not be read: only a record read after it says what holds.
  const unreadJudged = unread.find((u) => JUDGED_HEADINGS.has(u.heading));
  if (!record?.readOn) return said("pay.stale.noRecord", {}, "no search record of the business is kept");
  if (record.readOn < addDays(today, -recheckDays)) {
    return said(
      "pay.stale.old",
      { day: record.readOn, days: recheckDays },
      `its newest record was read on ${record.readOn}, more than ${recheckDays} day(s) ago`,
    );
  }
  if (open)
    return said(
      "pay.stale.accountsChange",
      { day: open.changeDate },
      `its bank_accounts change of ${open.changeDate} is newer than its newest record`,
    );
  if (unreadJudged)
    return said(
      "pay.stale.unread",
      { day: unreadJudged.since, heading: unreadJudged.heading },
      `its ${unreadJudged.heading} change of ${unreadJudged.since} could not be read and is newer than its newest record`,
    );
  return null;
}

/** The requests to send, in batch order, each answering for one or more rows. */
export function planAsks(
  rows: readonly PaymentRow[],
  knowledge: Knowledge,
  records: ReadonlyMap<string, PayeeRecord>,
  today: string,
  recheckDays: number,
): Ask[] {
  const asks = new Map<string, Ask>();
  const index = indexKnowledge(knowledge);
  const add = (kind: Ask["kind"], value: string, key: string, stale: Said | null, taxId: string | null) => {
    const id = `${kind} ${value}`;
    const ask = asks.get(id) ?? {
      kind,
      value,
      keys: [],
      stale: stale?.text ?? null,
      staleSaid: stale,
      taxId,
    };
    if (!ask.keys.includes(key)) ask.keys.push(key);
    asks.set(id, ask);
    return ask;
  };
  for (const row of rows) {
    const parsed = parseAccountOnce(row.bankAccount);
    if (!parsed.ok) continue;
    const payee = payeeOf(row, parsed.account, index);
    if (payee.by === "none") {
      if (payee.holders.length > 0) continue; // several holders: the file must name the payee
      const ask = add(
        "bank-account",
        searchValueOf(parsed.account),
        payeeKey("", parsed.account),
        null,
        null,
      );
      ask.forHolder = true;
      continue;
    }
    if (payee.by === "tax_id" && validRowTaxBase(row) === null) continue;
    const taxBase = payee.taxBase;
    const key = payeeKey(taxBase, parsed.account);
    const record = records.get(taxBase);
    const stale = staleness(
      taxBase,
      record,
      index.changesByTaxId.get(taxBase) ?? [],
      knowledge.businesses.get(taxBase)?.unread ?? [],
      today,
      recheckDays,
    );
    const regNumber = record?.registrationNumber ? checkRegistrationNumber(record.registrationNumber) : null;
    // The bank-account search covers companies only: asking it for a sole proprietor's account spends quota for nothing.
    const type = knowledge.businesses.get(taxBase)?.type;
    const searchable = type == null || type === "companies";
    if (stale && regNumber?.ok) add("reg-number", regNumber.value, key, stale, taxBase);
    else if (searchable && (stale || !index.byAccount.has(parsed.account))) {
      add("bank-account", searchValueOf(parsed.account), key, stale, null);
    }
  }
  return [...asks.values()];
}

/** What came of one request: the tax base numbers its answer held, or why there is none. */
export type AskResult = { ok: true; taxIds: readonly string[] } | { ok: false; why: Said };

/** Notes for the rows whose request was not answered, or whose answer missed their payee. */
export function onlineNotes(asks: readonly Ask[], results: readonly AskResult[]): Map<string, Said> {
  const notes = new Map<string, Said>();
  asks.forEach((ask, i) => {
    const result = results[i];
    if (!result) return;
    const stale = ask.staleSaid ?? null;
    let note: Said | null = null;
    if (!result.ok) note = detailSaid.notCheckedOnline(result.why, stale);
    else if (ask.taxId && !result.taxIds.includes(ask.taxId)) {
      note = detailSaid.askedNoRecord(ask.value, stale);
    } else if (ask.forHolder && result.taxIds.length === 0) {
      note = detailSaid.searchFoundNone();
    }
    if (note === null) return;
    for (const key of ask.keys) if (!notes.has(key)) notes.set(key, note);
  });
  return notes;
}

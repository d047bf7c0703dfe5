/**
 * The business page as data for its template, pure: the profile's headings in words, the values
 * business_as_of gives for the chosen day, and the timeline of changes grouped by day. Values read
 * as everywhere else (src/changes/format.ts: accounts as numbers, status as words); a value whose
 * order within its day is unknown is said to be so, never guessed.
 */

import { formatsFor } from "../../i18n/format.ts";
import { type MessageKey, type Translator, translatorFor } from "../../i18n/messages.ts";
import { unknownSinceWords, unreadWords } from "../../i18n/unread.ts";
import { valueText } from "../../i18n/values.ts";
import { type Term, termOf } from "../../i18n/words.ts";
import type { UnreadHeadingRow } from "../../payments/sql/unread-headings.ts";
import { REMOVED_TEXT } from "../../removed-marker.ts";
import type { BusinessAlertRow, BusinessListRow, BusinessProfileRow, TimelineRow } from "../sql/business.ts";

export interface HeadingLine {
  heading: string;
  value: string;
  /** The day the value is known from and where it came from (profile only). */
  asOf: string | null;
  source: string | null;
  /** Several values that day in no known order: `value` is empty and `candidates` lists them. */
  ambiguous: boolean;
  candidates: string[];
  /**
   * The heading's latest change was not read: `value` says "unknown since <day> (changed, not
   * read)", and this says why, with the value last known (if any) and its day.
   */
  unread: string | null;
}

export interface TimelineEntry {
  changeId: number;
  heading: string;
  chapter: string;
  before: string | null;
  after: string | null;
  /** Why there are no values to show (the file not read yet), or null when there are. */
  pending: string | null;
  ambiguous: boolean;
  lists: string[];
}

export interface TimelineDay {
  day: string;
  entries: TimelineEntry[];
}

export interface BusinessHeader {
  taxId: string;
  /** "" when no source has named the business. */
  name: string;
  nameKnown: boolean;
  /** The name's latest change was not read: "unknown since <day> (changed, not read)"; else null. */
  nameUnread: string | null;
  taxNumber: string | null;
  /** The status in words with its code; a status change not read yet says so in `label`. */
  status: Term | null;
  /** The day of the status's evidence and its source (change_file, search, profile); null when unread or unknown. */
  statusEvidence: { day: string; source: string } | null;
  type: Term | null;
  seat: string | null;
  registrationNumber: string | null;
}

const NAME_KEYS = ["long_name", "full_name", "name"];
const STATUS_KEYS = ["status", "status_code"];

/** The newest unread heading among `keys`, or undefined. */
function unreadAmong(
  unread: readonly UnreadHeadingRow[],
  keys: readonly string[],
): UnreadHeadingRow | undefined {
  return unread.filter((u) => keys.includes(u.heading)).sort((a, b) => b.since.localeCompare(a.since))[0];
}

/** The reader's words and the days as the reader writes them. */
export interface Reader {
  i18n: Translator;
  day: (day: string) => string;
}

const ENGLISH: Reader = { i18n: translatorFor("en"), day: (d) => d };

/** A reader in `locale`, days formatted as Intl writes them. */
export function readerOf(i18n: Translator): Reader {
  return { i18n, day: formatsFor(i18n.locale, "UTC").day };
}

export function businessHeader(
  taxId: string,
  profile: BusinessProfileRow | undefined,
  unread: readonly UnreadHeadingRow[] = [],
  reader: Reader = ENGLISH,
): BusinessHeader {
  const name = unreadAmong(unread, NAME_KEYS);
  const status = unreadAmong(unread, STATUS_KEYS);
  const since = (day: string) => unknownSinceWords(reader.i18n, day, reader.day);
  const code = profile?.statusCode;
  return {
    taxId,
    // A name or seat removed under the retention policy reads as removed, in the reader's language.
    name: profile?.name === REMOVED_TEXT ? reader.i18n.t("value.removed") : profile?.name?.trim() || "",
    nameKnown: Boolean(profile?.name?.trim()),
    nameUnread: name ? since(name.since) : null,
    taxNumber: profile?.taxNumber ?? null,
    status: status
      ? { key: "status", label: since(status.since), known: true }
      : code === null || code === undefined
        ? null
        : termOf(reader.i18n, "businessStatus", code),
    statusEvidence:
      !status && code !== null && code !== undefined && profile?.statusOn
        ? { day: profile.statusOn, source: profile.statusSource ?? "profile" }
        : null,
    type: profile?.type ? termOf(reader.i18n, "businessType", profile.type) : null,
    seat: profile?.seat === REMOVED_TEXT ? reader.i18n.t("value.removed") : (profile?.seat ?? null),
    registrationNumber: profile?.registrationNumber ?? null,
  };
}

/**
 * The profile's headings with its status as the newest dated evidence gives it (the header's), so
 * the page never says two statuses: the stored heading may be an older search record's.
 */
export function withNewestStatus(profile: BusinessProfileRow | undefined): Record<string, unknown> {
  const headings = profile?.headings ?? {};
  if (!profile?.statusOn || profile.statusCode === null || profile.statusSource === "profile")
    return headings;
  const { status_code: _code, ...rest } = headings;
  return {
    ...rest,
    status: { value: profile.statusCode, as_of: profile.statusOn, source: profile.statusSource ?? "search" },
  };
}

interface StoredFact {
  value?: unknown;
  as_of?: unknown;
  source?: unknown;
  order_ambiguous?: unknown;
  candidates?: unknown;
}

/**
 * The profile's headings (business_profiles.headings), alphabetically, with the headings whose
 * latest change was not read (v_unread_headings) shown as unknown since that day: the stored
 * value is older than the change and is named only as the last one known.
 */
export function profileLines(
  headings: Record<string, unknown>,
  unread: readonly UnreadHeadingRow[] = [],
  reader: Reader = ENGLISH,
): HeadingLine[] {
  const { i18n } = reader;
  const headingValue = (heading: string, value: unknown) => valueText(i18n, heading, value);
  const unreadOf = new Map(unread.map((u) => [u.heading, u]));
  return [...new Set([...Object.keys(headings), ...unreadOf.keys()])].sort().map((heading) => {
    const fact = (headings[heading] ?? {}) as StoredFact;
    const ambiguous = fact.order_ambiguous === true;
    const candidates = ambiguous && Array.isArray(fact.candidates) ? fact.candidates : [];
    const asOf = typeof fact.as_of === "string" ? fact.as_of : null;
    const stale = unreadOf.get(heading);
    if (stale && (asOf === null || asOf <= stale.since)) {
      const why = unreadWords(i18n, heading, stale);
      const known = "value" in fact && !ambiguous;
      const value = known ? headingValue(heading, fact.value) : "";
      return {
        heading,
        value: unknownSinceWords(i18n, stale.since, reader.day),
        asOf: stale.since,
        source: "change_file",
        ambiguous: false,
        candidates: [],
        unread: !known
          ? why
          : asOf
            ? i18n.t("unread.lastKnown", { why, value, day: reader.day(asOf) })
            : i18n.t("unread.lastKnownUndated", { why, value }),
      };
    }
    return {
      heading,
      value: ambiguous ? "" : headingValue(heading, fact.value),
      asOf,
      source: typeof fact.source === "string" ? fact.source : null,
      ambiguous,
      candidates: candidates.map((c) => headingValue(heading, c)),
      unread: null,
    };
  });
}

/** What business_as_of gave for a day, heading by heading; `_order_ambiguous` marks headings instead of showing. */
export function asOfLines(values: Record<string, unknown>, reader: Reader = ENGLISH): HeadingLine[] {
  const { i18n } = reader;
  const marked = values._order_ambiguous;
  const ambiguous = new Set(Array.isArray(marked) ? marked.map(String) : []);
  const unknownMarked = values._unknown;
  const unknown = new Set(Array.isArray(unknownMarked) ? unknownMarked.map(String) : []);
  return Object.keys(values)
    .filter((heading) => heading !== "_order_ambiguous" && heading !== "_unknown")
    .sort()
    .map((heading) => ({
      heading,
      value: ambiguous.has(heading)
        ? ""
        : unknown.has(heading)
          ? i18n.t("business.asOf.unknown")
          : valueText(i18n, heading, values[heading]),
      asOf: null,
      source: null,
      ambiguous: ambiguous.has(heading),
      candidates: [],
      unread: null,
    }));
}

const FILE_STATES = new Set(["pending", "failed", "refused", "skipped", "fetched"]);

/** Why a change has no values: its file's state, or, for a fetched file, what reading it came to. */
function pendingWords(i18n: Translator, r: TimelineRow): string {
  if (r.fileStatus === "fetched" && r.parseStatus !== null) {
    const why = unreadWords(i18n, r.heading, { fileStatus: r.fileStatus, parseStatus: r.parseStatus });
    return i18n.t("unread.noValues", { why });
  }
  const state = FILE_STATES.has(r.fileStatus ?? "") ? r.fileStatus : "pending";
  return i18n.t(`fileState.${state}` as MessageKey);
}

/** The timeline's rows grouped by day, newest day first (the order the rows come in). */
export function timelineDays(rows: readonly TimelineRow[], reader: Reader = ENGLISH): TimelineDay[] {
  const { i18n } = reader;
  const headingValue = (heading: string, value: unknown) => valueText(i18n, heading, value);
  const days: TimelineDay[] = [];
  for (const r of rows) {
    let day = days.at(-1);
    if (day?.day !== r.changeDate) {
      day = { day: r.changeDate, entries: [] };
      days.push(day);
    }
    day.entries.push({
      changeId: r.changeId,
      heading: r.heading,
      chapter: r.chapter,
      before: !r.hasValues
        ? null
        : r.oldValueKnown
          ? headingValue(r.heading, r.oldValue)
          : i18n.t("value.oldUnknown"),
      after: r.hasValues ? headingValue(r.heading, r.newValue) : null,
      pending: r.hasValues ? null : pendingWords(i18n, r),
      ambiguous: r.orderAmbiguous,
      lists: r.listNames,
    });
  }
  return days;
}

export function listLines(rows: readonly BusinessListRow[]) {
  return rows.map((r) => ({ ...r }));
}

export function alertLines(rows: readonly BusinessAlertRow[]) {
  return rows.map((r) => ({ ...r, href: `/alerts/${r.id}` }));
}

/**
 * The business page as data for its template, pure: the profile's headings in words, the values
 * business_as_of gives for the chosen day, and the timeline of changes grouped by day. Values read
 * as everywhere else (src/feed/format.ts: accounts as numbers, status as words); a value whose
 * order within its day is unknown is said to be so, never guessed.
 */
import type {
  BusinessAlertRow,
  BusinessListRow,
  BusinessProfileRow,
  TimelineRow,
} from "../../db/console-business.ts";
import type { UnreadHeadingRow } from "../../db/unread-headings.ts";
import { AMBIGUOUS_NOTE, headingValue, NAME_UNKNOWN, OLD_VALUE_UNKNOWN } from "../../feed/format.ts";
import { unknownSince, unreadWhy } from "../../feed/unread.ts";
import { statusInWords, typeInWords } from "../../search/format.ts";

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
  name: string;
  nameKnown: boolean;
  /** The name's latest change was not read: "unknown since <day> (changed, not read)"; else null. */
  nameUnread: string | null;
  taxNumber: string | null;
  status: string;
  type: string;
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

export function businessHeader(
  taxId: string,
  profile: BusinessProfileRow | undefined,
  unread: readonly UnreadHeadingRow[] = [],
): BusinessHeader {
  const name = unreadAmong(unread, NAME_KEYS);
  const status = unreadAmong(unread, STATUS_KEYS);
  return {
    taxId,
    name: profile?.name?.trim() || NAME_UNKNOWN,
    nameKnown: Boolean(profile?.name?.trim()),
    nameUnread: name ? unknownSince(name.since) : null,
    taxNumber: profile?.taxNumber ?? null,
    status: status ? unknownSince(status.since) : statusInWords(profile?.statusCode),
    type: typeInWords(profile?.type),
    seat: profile?.seat ?? null,
    registrationNumber: profile?.registrationNumber ?? null,
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
): HeadingLine[] {
  const unreadOf = new Map(unread.map((u) => [u.heading, u]));
  return [...new Set([...Object.keys(headings), ...unreadOf.keys()])].sort().map((heading) => {
    const fact = (headings[heading] ?? {}) as StoredFact;
    const ambiguous = fact.order_ambiguous === true;
    const candidates = ambiguous && Array.isArray(fact.candidates) ? fact.candidates : [];
    const asOf = typeof fact.as_of === "string" ? fact.as_of : null;
    const stale = unreadOf.get(heading);
    if (stale && (asOf === null || asOf <= stale.since)) {
      const last = "value" in fact && !ambiguous ? `; last known: ${headingValue(heading, fact.value)}` : "";
      return {
        heading,
        value: unknownSince(stale.since),
        asOf: stale.since,
        source: "change_file",
        ambiguous: false,
        candidates: [],
        unread: `${unreadWhy(heading, stale)}${last}${asOf ? ` (known from ${asOf})` : ""}`,
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
export function asOfLines(values: Record<string, unknown>): HeadingLine[] {
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
          ? "not known: the next change's file did not give the value before it"
          : headingValue(heading, values[heading]),
      asOf: null,
      source: null,
      ambiguous: ambiguous.has(heading),
      candidates: [],
      unread: null,
    }));
}

const FILE_STATE: Record<string, string> = {
  pending: "values not read yet: the change file is waiting to be fetched",
  failed: "values not read yet: fetching the change file failed and will be retried",
  refused: "no values: the change file's address is outside REGWATCH_FILE_ORIGINS",
  skipped: "no values: REGWATCH_FETCH_FILES leaves this file out",
  fetched: "no values for this heading in the change file",
};

/** Why a change has no values: its file's state, or, for a fetched file, what reading it came to. */
function pendingWords(r: TimelineRow): string {
  if (r.fileStatus === "fetched" && r.parseStatus !== null)
    return `no values: ${unreadWhy(r.heading, { fileStatus: r.fileStatus, parseStatus: r.parseStatus })}`;
  return FILE_STATE[r.fileStatus ?? "pending"] ?? FILE_STATE.pending!;
}

/** The timeline's rows grouped by day, newest day first (the order the rows come in). */
export function timelineDays(rows: readonly TimelineRow[]): TimelineDay[] {
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
      before: !r.hasValues ? null : r.oldValueKnown ? headingValue(r.heading, r.oldValue) : OLD_VALUE_UNKNOWN,
      after: r.hasValues ? headingValue(r.heading, r.newValue) : null,
      pending: r.hasValues ? null : pendingWords(r),
      ambiguous: r.orderAmbiguous,
      lists: r.listNames,
    });
  }
  return days;
}

/** The note shown beside a value whose place in its day's order is unknown. */
export const ORDER_UNKNOWN = AMBIGUOUS_NOTE;

const LIST_STATE: Record<string, string> = {
  in_sync: "watched",
  pending_add: "desired, not on the remote list yet",
  add_failed: "desired; the registry refused adding it",
  pending_remove: "on the remote list, no longer desired: reconcile removes it",
  not_requested: "on a managed list at the registry, never asked for by regwatch",
  unmanaged: "on a list regwatch does not manage",
};

export function listLines(rows: readonly BusinessListRow[]) {
  return rows.map((r) => ({ ...r, stateText: LIST_STATE[r.state] ?? r.state }));
}

export function alertLines(rows: readonly BusinessAlertRow[]) {
  return rows.map((r) => ({
    ...r,
    href: `/alerts/${r.id}`,
    statusText: r.status === "snoozed" && r.snoozedUntil ? `snoozed until ${r.snoozedUntil}` : r.status,
    raised: r.raisedAt.toISOString().slice(0, 16).replace("T", " "),
  }));
}

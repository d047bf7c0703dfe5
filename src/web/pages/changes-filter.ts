/**
 * The change feed's filters from a query string, checked as `regwatch changes` checks its
 * options: since (default a week ago), until, list (key or name, repeatable), heading
 * (repeatable) and tax_id; every problem named. Shared by /changes and its downloads. The page
 * itself is named by a place in the feed (after or before a row's key, or the last page), never
 * by a number: a page is read from where the one next to it stopped.
 */

import type { FeedFilter, FeedSlice } from "../../changes/sql/change-feed.ts";
import { addDays, localDateTime } from "../../dates.ts";
import type { Sql } from "../../db/connect.ts";
import { type Translator, translatorFor } from "../../i18n/messages.ts";
import { saidIn } from "../../i18n/said-words.ts";
import { resolveListRefs } from "../../list-ref.ts";
import { loadWatchLists } from "../../run/lists.ts";
import { foreignSaid, taxBaseOf } from "../../taxid.ts";
import { line, query, repeated } from "../route-schemas.ts";
import { CURSOR, decodeCursor } from "./changes-cursor.ts";
import { AUDIENCE_FIELD } from "./download-audience.ts";
import { QueryReader } from "./query-reader.ts";

export const DEFAULT_DAYS = 7;

/** The query string /changes and its downloads accept (the meaning of each value is checked below). */
export const FEED = {
  querystring: query({
    since: line(40),
    until: line(40),
    list: repeated(200),
    heading: repeated(200),
    tax_id: line(200),
    ...AUDIENCE_FIELD,
    after: CURSOR,
    before: CURSOR,
    last: line(5),
  }),
};

export interface ChangesQuery {
  filter: FeedFilter;
  /** The values as given, for the form to show them again. */
  form: { since: string; until: string; list: string[]; heading: string[]; tax_id: string };
  /** Which page: rows after or before a key, or from either end (null key). */
  position: Omit<FeedSlice, "limit">;
  problems: string[];
}

export async function readChangesQuery(
  sql: Sql,
  query: Record<string, unknown>,
  options: { now: Date; timeZone: string; i18n?: Translator },
): Promise<ChangesQuery> {
  const i18n = options.i18n ?? translatorFor("en");
  const q = new QueryReader(query, i18n);
  const since = q.date("since") ?? addDays(localDateTime(options.now, options.timeZone).date, -DEFAULT_DAYS);
  const until = q.date("until");
  if (until !== null && until < since)
    q.problems.push(i18n.t("changes.problem.untilBefore", { until, since }));
  const taxIdText = q.text("tax_id");
  const taxId = taxIdText === null ? null : (taxBaseOf(taxIdText) ?? null);
  if (taxIdText !== null && taxId === null) {
    const foreign = foreignSaid(taxIdText);
    q.problems.push(foreign ? saidIn(i18n, foreign) : i18n.t("changes.problem.taxId", { value: taxIdText }));
  }
  const listRefs = q.texts("list");
  let lists: string[] = [];
  if (listRefs.length > 0) {
    const resolved = resolveListRefs(listRefs, await loadWatchLists(sql, { includeDeleted: true }));
    if (resolved.ok) lists = [...new Set(resolved.lists.map((l) => l.listName))];
    else q.problems.push(resolved.problem.replace(/^--list/, "list"));
  }
  // The form's field takes several headings separated by commas; a link may repeat the parameter.
  const headings = [...new Set(q.texts("heading").flatMap((h) => h.split(",").map((s) => s.trim())))].filter(
    (h) => h !== "",
  );
  const position = readPosition(q, i18n);
  return {
    filter: { since, until, lists, headings, taxId },
    form: { since, until: until ?? "", list: listRefs, heading: headings, tax_id: taxIdText ?? "" },
    position,
    problems: q.problems,
  };
}

/** The page's place: `after=CURSOR` (older rows), `before=CURSOR` (newer), `last` (the oldest), else the first. */
function readPosition(q: QueryReader, i18n: Translator): Omit<FeedSlice, "limit"> {
  const given = (["after", "before", "last"] as const).filter((name) => q.text(name) !== null);
  if (given.length > 1) {
    q.problems.push(i18n.t("changes.problem.cursors"));
    return { key: null, side: "after" };
  }
  if (given[0] === "last") return { key: null, side: "before" };
  const side = given[0] ?? "after";
  const text = q.text(side);
  if (text === null) return { key: null, side };
  const key = decodeCursor(text);
  if (key === null) q.problems.push(i18n.t("changes.problem.cursor", { name: side }));
  return { key, side };
}

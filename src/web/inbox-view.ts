/**
 * The inbox's pure parts: reading the filters from the query string (a bad value is named, not
 * guessed at) and shaping one page of alerts into business groups with each changed heading as
 * old → new in words.
 */
import { isValidDate } from "../dates.ts";
import { ALERT_STATUSES, type AlertStatus } from "../db/alerts-lifecycle.ts";
import type { HeadingValue } from "../db/alerts-outbox.ts";
import type { InboxAlert, InboxFilter } from "../db/console-inbox.ts";
import { headingValue } from "../feed/format.ts";
import { type Translator, translatorFor } from "../i18n/messages.ts";

export const INBOX_PAGE_SIZE = 50;

/** The filters as the query string gives them; empty values mean "any". */
export interface InboxQuery {
  status?: string;
  list?: string;
  heading?: string;
  rule?: string;
  from?: string;
  to?: string;
  page?: string;
}

export function readInboxQuery(
  query: InboxQuery,
  i18n: Translator = translatorFor("en"),
): { filter: InboxFilter; problems: string[] } {
  const problems: string[] = [];
  let statusRefused = false;
  const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value.trim() : null);
  const status = text(query.status) ?? "open";
  if (status !== "all" && !ALERT_STATUSES.includes(status as AlertStatus)) {
    statusRefused = true;
    problems.push(
      i18n.t("inbox.problem.status", { allowed: [...ALERT_STATUSES, "all"].join(", "), value: status }),
    );
  }
  const day = (name: "from" | "to") => {
    const value = text(query[name]);
    if (value !== null && !isValidDate(value)) {
      problems.push(i18n.t("inbox.problem.date", { name, value }));
      return null;
    }
    return value;
  };
  const from = day("from");
  const to = day("to");
  const pageText = text(query.page) ?? "1";
  const page = /^\d{1,6}$/.test(pageText) && Number(pageText) >= 1 ? Number(pageText) : 1;
  if (page === 1 && pageText !== "1") problems.push(i18n.t("inbox.problem.page", { value: pageText }));
  return {
    filter: {
      status: statusRefused ? "open" : (status as AlertStatus | "all"),
      list: text(query.list),
      heading: text(query.heading),
      rule: text(query.rule),
      from,
      to,
      page,
      pageSize: INBOX_PAGE_SIZE,
    },
    problems,
  };
}

/** The filters back as query parameters (for links that keep them: pages, return after an action). */
export function filterParams(f: InboxFilter): Record<string, string | null> {
  return {
    status: f.status === "open" ? null : f.status,
    list: f.list,
    heading: f.heading,
    rule: f.rule,
    from: f.from,
    to: f.to,
  };
}

export interface HeadingLine {
  heading: string;
  /** null while the change file has not been parsed: only the heading's name is known. */
  oldText: string | null;
  newText: string | null;
  orderAmbiguous: boolean;
}

/**
 * Each changed heading with its values in words (status as words, accounts as numbers);
 * `sayValue` says a value in the reader's language.
 */
export function headingLines(
  names: readonly string[],
  values: readonly HeadingValue[],
  sayValue: (heading: string, value: unknown) => string = headingValue,
): HeadingLine[] {
  const byHeading = new Map(values.map((v) => [v.heading, v]));
  const all = [...new Set([...names, ...byHeading.keys()])];
  return all.map((heading) => {
    const v = byHeading.get(heading);
    if (!v || (!("oldValue" in v) && !("newValue" in v))) {
      return { heading, oldText: null, newText: null, orderAmbiguous: false };
    }
    return {
      heading,
      oldText: sayValue(heading, v.oldValue),
      newText: sayValue(heading, v.newValue),
      orderAmbiguous: v.orderAmbiguous === true,
    };
  });
}

export interface InboxGroup {
  taxId: string;
  /** "" when no source has named the business (the page says so in its language). */
  name: string;
  lists: string[];
  alerts: (InboxAlert & { lines: HeadingLine[] })[];
}

/**
 * The page's alerts grouped by business, groups in the order of their newest alert. A group's
 * lists are those the business is on now (`onLists`), else those that reported its changes.
 */
export function groupByBusiness(
  alerts: readonly InboxAlert[],
  onLists: ReadonlyMap<string, readonly string[]> = new Map(),
  sayValue: (heading: string, value: unknown) => string = headingValue,
): InboxGroup[] {
  const groups = new Map<string, InboxGroup>();
  for (const alert of alerts) {
    let group = groups.get(alert.taxId);
    if (!group) {
      group = {
        taxId: alert.taxId,
        name: alert.name?.trim() || "",
        lists: [...(onLists.get(alert.taxId) ?? [])],
        alerts: [],
      };
      groups.set(alert.taxId, group);
    }
    if (!onLists.has(alert.taxId)) {
      for (const list of alert.lists) if (!group.lists.includes(list)) group.lists.push(list);
    }
    group.alerts.push({ ...alert, lines: headingLines(alert.headingNames, alert.values, sayValue) });
  }
  return [...groups.values()];
}

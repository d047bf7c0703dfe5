/**
 * The inbox's pure parts: reading the filters from the query string (a bad value is named, not
 * guessed at) and shaping one page of changes into business groups with each changed heading as
 * old → new in words.
 */
import { SEVERITIES, type Severity } from "../alerts/severity.ts";
import { ALERT_STATUSES, type AlertStatus } from "../alerts/sql/lifecycle.ts";
import type { HeadingValue } from "../alerts/sql/outbox.ts";
import { headingValue } from "../changes/format.ts";
import { isValidDate } from "../dates.ts";
import { type Translator, translatorFor } from "../i18n/messages.ts";
import type { InboxChange } from "./sql/inbox-changes.ts";

export const INBOX_PAGE_SIZE = 50;

/** The filters as the query string gives them; empty values mean "any". */
export interface InboxQuery {
  status?: string;
  list?: string;
  heading?: string;
  rule?: string;
  from?: string;
  to?: string;
  severity?: string;
  /** "me": alerts assigned to the signed-in user. */
  assigned?: string;
  /** "1": alerts raised within the last day. */
  new?: string;
  page?: string;
}

/** The inbox's filters: the query's, read and checked. */
export interface InboxFilter {
  status: AlertStatus | "all";
  list: string | null;
  heading: string | null;
  rule: string | null;
  from: string | null;
  to: string | null;
  severity: Severity | null;
  assignedToMe: boolean;
  newOnly: boolean;
  page: number;
  pageSize: number;
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
  let severityRefused = false;
  const severity = text(query.severity);
  if (severity !== null && !SEVERITIES.includes(severity as Severity)) {
    severityRefused = true;
    problems.push(i18n.t("inbox.problem.severity", { allowed: SEVERITIES.join(", "), value: severity }));
  }
  const flag = (name: "assigned" | "new", on: string) => {
    const value = text(query[name]);
    if (value !== null && value !== on) problems.push(i18n.t("inbox.problem.flag", { name, on, value }));
    return value === on;
  };
  const assignedToMe = flag("assigned", "me");
  const newOnly = flag("new", "1");
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
      severity: severityRefused ? null : (severity as Severity | null),
      assignedToMe,
      newOnly,
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
    severity: f.severity,
    assigned: f.assignedToMe ? "me" : null,
    new: f.newOnly ? "1" : null,
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
  /** The business's status now (newest dated evidence), with its day and source; null when unknown. */
  status: { code: number; day: string; source: string } | null;
  lists: string[];
  changes: (InboxChange & { lines: HeadingLine[] })[];
}

/**
 * The page's changes grouped by business, groups in the order of their newest change; within a
 * group the changes go by their change date, newest first (ids follow when they were stored, and a
 * backfill stores an older change after a newer one), then by id. A group's lists are those the
 * business is on now (`onLists`), else those that reported its changes.
 */
export function groupByBusiness(
  changes: readonly InboxChange[],
  onLists: ReadonlyMap<string, readonly string[]> = new Map(),
  sayValue: (heading: string, value: unknown) => string = headingValue,
): InboxGroup[] {
  const groups = new Map<string, InboxGroup>();
  for (const change of changes) {
    let group = groups.get(change.taxId);
    if (!group) {
      group = {
        taxId: change.taxId,
        name: change.name?.trim() || "",
        status:
          change.statusCode === null || change.statusCode === undefined || !change.statusOn
            ? null
            : { code: change.statusCode, day: change.statusOn, source: change.statusSource ?? "profile" },
        lists: [...(onLists.get(change.taxId) ?? [])],
        changes: [],
      };
      groups.set(change.taxId, group);
    }
    if (!onLists.has(change.taxId)) {
      for (const list of change.lists) if (!group.lists.includes(list)) group.lists.push(list);
    }
    group.changes.push({ ...change, lines: headingLines(change.headingNames, change.values, sayValue) });
  }
  const byDate = (a: InboxChange, b: InboxChange) =>
    a.changeDate === b.changeDate ? b.changeId - a.changeId : a.changeDate < b.changeDate ? 1 : -1;
  for (const group of groups.values()) group.changes.sort(byDate);
  return [...groups.values()];
}

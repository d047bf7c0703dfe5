/**
 * `/`: the inbox (one row per change with the rules that matched it, newest first, grouped by
 * business, filters in the query string, page by page) and `POST /alerts/bulk` (one action on
 * every alert of each selected change, or on selected alerts). After an action the page comes
 * back with the filters it had and a sentence saying what was done.
 */

import type { FastifyInstance, FastifyRequest } from "fastify";
import { SEVERITY_RULE } from "../../alerts/severity.ts";
import { deliveryTrouble } from "../../alerts/sql/delivery-health.ts";
import type { AlertStatus } from "../../alerts/sql/lifecycle.ts";
import { usersOfAccount } from "../../console/access.ts";
import { listConsoleUsers } from "../../console/users.ts";
import { inOneRead } from "../../db/one-read.ts";
import { formatsFor } from "../../i18n/format.ts";
import type { Translator } from "../../i18n/messages.ts";
import { valueText } from "../../i18n/values.ts";
import { type ActionRequest, readAction, safeReturn } from "../alert-actions.ts";
import { fill } from "../fill-message.ts";
import { withGivenNames } from "../given-names-view.ts";
import {
  filterParams,
  groupByBusiness,
  type InboxFilter,
  type InboxQuery,
  readInboxQuery,
} from "../inbox-view.ts";
import type { PageKit, WebDeps } from "../kit.ts";
import { roleAtLeast } from "../kit.ts";
import { DECIMAL_ID, form, line, PAGE, query, typedText } from "../route-schemas.ts";
import { inboxChoices, listsOfBusinesses } from "../sql/inbox.ts";
import { alertsOfChanges, inboxChangeCounts, inboxChanges, inboxContext } from "../sql/inbox-changes.ts";
import { actOnAlerts, consoleToday, refuseAction, reopenEndedSnoozes } from "./act-on-alerts.ts";
import { inboxMessages } from "./inbox-messages.ts";

const INBOX = {
  querystring: query({
    status: line(40),
    list: line(200),
    heading: line(200),
    rule: line(200),
    from: line(40),
    to: line(40),
    severity: line(20),
    assigned: line(10),
    new: line(4),
    done: line(20),
    alerts: line(8),
    changes: line(8),
    until: line(40),
    user: line(200),
    page: PAGE,
  }),
};
const BULK = {
  querystring: query(),
  body: form({
    action: line(40),
    ids: { type: "array", maxItems: 1000, items: DECIMAL_ID },
    changes: { type: "array", maxItems: 1000, items: DECIMAL_ID },
    // A row's own button: acknowledge that change alone, whatever the bar above says.
    only: DECIMAL_ID,
    status: line(40),
    note: typedText(20_000),
    until: line(40),
    assignee: line(200),
    return: line(2000),
  }),
};

const DAY_MS = 86_400_000;

export async function registerInboxPages(app: FastifyInstance, kit: PageKit, home: WebDeps): Promise<void> {
  // Alerts are assigned only to users who can see their account (everyone without an accounts file).
  const assignable = (request: FastifyRequest) =>
    usersOfAccount(home.db.sql, request.accountView?.current ?? null);
  const userExists = async (name: string) =>
    (await listConsoleUsers(home.db.sql, home.now())).some((u) => u.name === name);

  app.get<{ Querystring: InboxQuery & Record<string, string | undefined> }>(
    "/",
    { schema: INBOX },
    async (request, reply) => {
      const deps = request.deps;
      const i18n = kit.i18n(request);
      const M = inboxMessages(i18n);
      const { filter, problems } = readInboxQuery(request.query, i18n);
      await reopenEndedSnoozes(deps);
      const since = new Date(deps.now().getTime() - DAY_MS);
      const canAct = roleAtLeast(request.user.role, "reviewer");
      // One read-only transaction for the page, its counts and everything shown beside them, not
      // one per statement: fewer round trips, one state of the database for the cards and the rows.
      // (Side by side on two connections measured no faster on two busy cores, and its tail slower.)
      const [{ counts, page, choices, context, onLists, changes, trouble }, users] = await Promise.all([
        inOneRead(deps.db.sql, async (sql) => {
          const [page, counts, choices, context, trouble] = await Promise.all([
            inboxChanges(
              sql,
              toDbFilter(filter, request.user.name, since),
              SEVERITY_RULE,
              deps.config.registryTz,
            ),
            inboxChangeCounts(sql, { since, me: request.user.name }),
            inboxChoices(sql),
            inboxContext(sql),
            // Messages that do not go out are said where people wait for them.
            deliveryTrouble(sql),
          ]);
          const onLists = await listsOfBusinesses(sql, [...new Set(page.changes.map((c) => c.taxId))]);
          const changes = await withGivenNames(sql, page.changes, i18n);
          return { counts, page, choices, context, onLists, changes, trouble };
        }),
        canAct ? assignable(request) : Promise.resolve([]),
      ]);
      const params = filterParams(filter);
      return kit.render(
        request,
        reply,
        "inbox",
        {
          title: M.title,
          m: M,
          fill,
          filter,
          problems,
          counts,
          choices,
          users,
          trouble,
          groups: groupByBusiness(changes, onLists, (heading, value) => valueText(i18n, heading, value)),
          shown: page.changes.length,
          // Rows the registry has not named lead to the page that looks them all up at once.
          unnamedOnPage: page.changes.some((c) => !c.name?.trim()),
          firstRow: page.changes.length > 0,
          canAct,
          isAdmin: roleAtLeast(request.user.role, "admin"),
          empty: emptyReason(filter, context),
          done: doneMessage(i18n, request.query),
          today: consoleToday(deps),
          here: withoutDone(request.url),
          previous: filter.page > 1 ? { ...params, page: filter.page - 1 } : null,
          next: page.hasNext ? { ...params, page: filter.page + 1 } : null,
        },
        problems.length > 0 ? 400 : 200,
      );
    },
  );

  app.post<{ Body: Record<string, unknown> }>(
    "/alerts/bulk",
    { schema: BULK, preHandler: kit.requireRole("reviewer") },
    async (request, reply) => {
      const deps = request.deps;
      const i18n = kit.i18n(request);
      const body = request.body ?? {};
      const only = typeof body.only === "string" ? body.only : undefined;
      const changeIds = (only ? [only] : asList(body.changes)).map(Number);
      const shownStatus = readStatus(body.status);
      const fromChanges = await alertsOfChanges(deps.db.sql, changeIds, shownStatus);
      const ids = [...(only ? [] : asList(body.ids)), ...fromChanges.map(String)];
      const { request: action, problems } = readAction(
        only ? "ack" : body.action,
        only ? { ids } : { ...body, ids },
        consoleToday(deps),
        i18n,
      );
      if (!action) return refuseAction(kit, request, reply, problems);
      if (action.action === "assign" && action.assignee !== null) {
        const user = action.assignee;
        if (!(await assignable(request)).includes(user))
          return refuseAction(kit, request, reply, [
            (await userExists(user))
              ? i18n.t("inboxMsg.assigneeOtherAccount", { user, account: request.accountView?.current ?? "" })
              : i18n.t("inboxMsg.unknownAssignee", { user }),
          ]);
      }
      const done = await actOnAlerts(deps, request.user, action);
      const changes = changeIds.length > 0 ? changeIds.length : action.ids.length;
      return reply.redirect(withDone(safeReturn(body.return, "/"), action, done.length, changes), 303);
    },
  );
}

function asList(value: unknown): string[] {
  return value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(String);
}

/** The status the page showed its rows in: a row acts on its change's alerts in that status. */
function readStatus(value: unknown): AlertStatus | null {
  return value === "open" || value === "acknowledged" || value === "snoozed" || value === "resolved"
    ? value
    : null;
}

function toDbFilter(f: InboxFilter, me: string, since: Date) {
  return {
    status: f.status,
    list: f.list,
    heading: f.heading,
    rule: f.rule,
    from: f.from,
    to: f.to,
    severity: f.severity,
    assignedTo: f.assignedToMe ? me : null,
    raisedSince: f.newOnly ? since : null,
    page: f.page,
    pageSize: f.pageSize,
  };
}

/** Why the inbox shows nothing: no rule, every rule paused, nothing new since the last run, or the filters. */
function emptyReason(
  f: InboxFilter,
  context: { rules: number; activeRules: number; lastRunAt: Date | null },
): { kind: "no-rules" | "paused" | "nothing-new" | "no-run" | "filtered"; at?: Date; count?: number } {
  if (context.rules === 0) return { kind: "no-rules" };
  if (context.activeRules === 0) return { kind: "paused", count: context.rules };
  const filtered = Object.values(filterParams(f)).some((v) => v !== null);
  if (filtered) return { kind: "filtered" };
  return context.lastRunAt ? { kind: "nothing-new", at: context.lastRunAt } : { kind: "no-run" };
}

const DONE_KEYS = ["done", "alerts", "changes", "until", "user"] as const;

/** The return address with what was done, for the page to confirm (what it had before is replaced). */
function withDone(back: string, action: ActionRequest, alerts: number, changes: number): string {
  const url = new URL(back, "http://console.invalid");
  for (const key of DONE_KEYS) url.searchParams.delete(key);
  url.searchParams.set("done", alerts === 0 ? "nothing" : action.action);
  url.searchParams.set("alerts", String(alerts));
  url.searchParams.set("changes", String(changes));
  if (action.until) url.searchParams.set("until", action.until);
  if (action.action === "assign" && action.assignee) url.searchParams.set("user", action.assignee);
  return `${url.pathname}${url.search}`;
}

/** The page's address without a previous confirmation, for the next form's return. */
function withoutDone(address: string): string {
  const url = new URL(address, "http://console.invalid");
  for (const key of DONE_KEYS) url.searchParams.delete(key);
  return `${url.pathname}${url.search}`;
}

/** The confirmation of the last action, its counts said with their plurals (ICU, through the catalog). */
function doneMessage(i18n: Translator, q: Record<string, string | undefined>): string | null {
  const count = (text: string | undefined) => {
    const n = Number(text ?? "0");
    return Number.isInteger(n) && n >= 0 ? n : 0;
  };
  const values = {
    alerts: count(q.alerts),
    changes: count(q.changes),
    until: formatsFor(i18n.locale, "UTC").day(q.until ?? ""),
    user: q.user ?? "",
  };
  switch (q.done) {
    case "ack":
      return i18n.t("inboxMsg.doneAck", values);
    case "resolve":
      return i18n.t("inboxMsg.doneResolve", values);
    case "snooze":
      return i18n.t("inboxMsg.doneSnooze", values);
    case "comment":
      return i18n.t("inboxMsg.doneComment", values);
    case "assign":
      return i18n.t(q.user ? "inboxMsg.doneAssign" : "inboxMsg.doneUnassign", values);
    case "nothing":
      return i18n.t("inboxMsg.doneNothing");
    default:
      return null;
  }
}

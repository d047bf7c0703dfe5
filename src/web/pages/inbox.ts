/**
 * `/`: the inbox (open alerts, newest first, grouped by business, filters in the query string,
 * page by page) and `POST /alerts/bulk` (one action on every selected alert).
 */
import { inboxChoices, inboxCounts, inboxPage, listsOfBusinesses } from "../../db/console-inbox.ts";
import { valueText } from "../../i18n/values.ts";
import { readAction, safeReturn } from "../alert-actions.ts";
import { withGivenNames } from "../given-names-view.ts";
import { filterParams, groupByBusiness, type InboxQuery, readInboxQuery } from "../inbox-view.ts";
import type { RegisterAccountPages } from "../kit.ts";
import { roleAtLeast } from "../kit.ts";
import { DECIMAL_ID, form, line, PAGE, query, typedText } from "../route-schemas.ts";
import { actOnAlerts, consoleToday, refuseAction, reopenEndedSnoozes } from "./act-on-alerts.ts";

const INBOX = {
  querystring: query({
    status: line(40),
    list: line(200),
    heading: line(200),
    rule: line(200),
    from: line(40),
    to: line(40),
    page: PAGE,
  }),
};
const BULK = {
  querystring: query(),
  body: form({
    action: line(40),
    ids: { type: "array", maxItems: 1000, items: DECIMAL_ID },
    note: typedText(20_000),
    until: line(40),
    return: line(2000),
  }),
};

const DAY_MS = 86_400_000;

export const registerInboxPages: RegisterAccountPages = (app, kit) => {
  app.get<{ Querystring: InboxQuery }>("/", { schema: INBOX }, async (request, reply) => {
    const deps = request.deps;
    const i18n = kit.i18n(request);
    const { filter, problems } = readInboxQuery(request.query, i18n);
    await reopenEndedSnoozes(deps);
    const [page, counts, choices] = await Promise.all([
      inboxPage(deps.db.sql, filter),
      inboxCounts(deps.db.sql, new Date(deps.now().getTime() - DAY_MS)),
      inboxChoices(deps.db.sql),
    ]);
    const onLists = await listsOfBusinesses(deps.db.sql, [...new Set(page.alerts.map((a) => a.taxId))]);
    const alerts = await withGivenNames(deps.db.sql, page.alerts, i18n);
    const params = filterParams(filter);
    return kit.render(
      request,
      reply,
      "inbox",
      {
        title: i18n.t("inbox.title"),
        filter,
        problems,
        counts,
        choices,
        groups: groupByBusiness(alerts, onLists, (heading, value) => valueText(i18n, heading, value)),
        shown: page.alerts.length,
        canAct: roleAtLeast(request.user.role, "reviewer"),
        today: consoleToday(deps),
        here: request.url,
        previous: filter.page > 1 ? { ...params, page: filter.page - 1 } : null,
        next: page.hasNext ? { ...params, page: filter.page + 1 } : null,
      },
      problems.length > 0 ? 400 : 200,
    );
  });

  app.post<{ Body: Record<string, unknown> }>(
    "/alerts/bulk",
    { schema: BULK, preHandler: kit.requireRole("reviewer") },
    async (request, reply) => {
      const deps = request.deps;
      const body = request.body ?? {};
      const { request: action, problems } = readAction(
        body.action,
        body,
        consoleToday(deps),
        kit.i18n(request),
      );
      if (!action) return refuseAction(kit, request, reply, problems);
      await actOnAlerts(deps, request.user, action);
      return reply.redirect(safeReturn(body.return, "/"), 303);
    },
  );
};

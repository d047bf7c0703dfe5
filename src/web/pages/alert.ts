/**
 * `/alerts/{id}`: the change with before/after values, the business's other recent changes, the
 * delivery state of each message and the history; and the actions on it, each a form posting
 * `note` and `_csrf` (reviewers and admins only; the actor is the signed-in user).
 */

import type { FastifyReply, FastifyRequest } from "fastify";
import { alertHistoryPdf } from "../../alerts/history-pdf.ts";
import { deliveryTrouble } from "../../alerts/sql/delivery-health.ts";
import { alertDetail } from "../../alerts/sql/history.ts";
import { valueText } from "../../i18n/values.ts";
import { ALERT_ACTIONS, readAction } from "../alert-actions.ts";
import { headingLines } from "../inbox-view.ts";
import type { PageKit, RegisterAccountPages } from "../kit.ts";
import { roleAtLeast } from "../kit.ts";
import { form, line, query, typedText } from "../route-schemas.ts";
import { recentChangesOf } from "../sql/inbox.ts";
import { actOnAlerts, consoleToday, refuseAction, reopenEndedSnoozes } from "./act-on-alerts.ts";
import { reportRequest, sendPdf } from "./evidence-download.ts";

/** Checked for its characters only: an id out of shape is "no such alert" (404), as an unknown one is. */
const ALERT_ID = line(40);
const ALERT_PARAMS = { type: "object", properties: { id: ALERT_ID }, required: ["id"] } as const;
const SHOW = { params: ALERT_PARAMS, querystring: query() };
const ACT = {
  params: {
    type: "object",
    properties: { id: ALERT_ID, action: { type: "string", enum: [...ALERT_ACTIONS] } },
    required: ["id", "action"],
  },
  querystring: query(),
  body: form({ note: typedText(20_000), until: line(40) }),
};

const RECENT_CHANGES = 10;

export const registerAlertPages: RegisterAccountPages = (app, kit) => {
  app.get<{ Params: { id: string } }>("/alerts/:id", { schema: SHOW }, async (request, reply) => {
    const deps = request.deps;
    const id = alertIdOf(request.params.id);
    await reopenEndedSnoozes(deps);
    const detail = id === null ? undefined : await alertDetail(deps.db.sql, id);
    if (!detail) return noSuchAlert(kit, request, reply, request.params.id);
    const content = detail.content;
    const i18n = kit.i18n(request);
    const sayValue = (heading: string, value: unknown) => valueText(i18n, heading, value);
    const [others, trouble] = await Promise.all([
      content ? recentChangesOf(deps.db.sql, content.taxId, content.changeId, RECENT_CHANGES) : [],
      deliveryTrouble(deps.db.sql),
    ]);
    return kit.render(request, reply, "alert", {
      title: i18n.t("alert.title", { id: String(detail.id) }),
      alert: detail,
      lines: content
        ? headingLines(
            content.headings.map((h) => h.heading),
            content.headings,
            sayValue,
          )
        : [],
      others: others.map((c) => ({ ...c, lines: headingLines(c.headingNames, c.values, sayValue) })),
      canAct: roleAtLeast(request.user.role, "reviewer"),
      today: consoleToday(deps),
      trouble,
    });
  });

  app.get<{ Params: { id: string } }>("/alerts/:id/history.pdf", { schema: SHOW }, async (request, reply) => {
    const deps = request.deps;
    const id = alertIdOf(request.params.id);
    const i18n = kit.i18n(request);
    const pdf =
      id === null ? undefined : await alertHistoryPdf(deps.db.sql, id, reportRequest(deps, i18n.locale));
    if (!pdf) return noSuchAlert(kit, request, reply, request.params.id);
    return sendPdf(reply, `regwatch-alert-${id}-history.pdf`, pdf);
  });

  app.post<{ Params: { id: string; action: string }; Body: Record<string, unknown> }>(
    "/alerts/:id/:action",
    { schema: ACT, preHandler: kit.requireRole("reviewer") },
    async (request, reply) => {
      const deps = request.deps;
      const id = alertIdOf(request.params.id);
      if (id === null) return noSuchAlert(kit, request, reply, request.params.id);
      const body = request.body ?? {};
      // Only the note (and a snooze's day) are read from the form: a `by` field is ignored.
      const { request: action, problems } = readAction(
        request.params.action,
        { ids: String(id), note: body.note, until: body.until },
        consoleToday(deps),
        kit.i18n(request),
      );
      if (!action) return refuseAction(kit, request, reply, problems);
      const done = await actOnAlerts(deps, request.user, action);
      if (done.length === 0) return noSuchAlert(kit, request, reply, String(id));
      return reply.redirect(`/alerts/${id}`, 303);
    },
  );
};

function noSuchAlert(kit: PageKit, request: FastifyRequest, reply: FastifyReply, id: string) {
  return kit.render(
    request,
    reply,
    "error",
    {
      title: kit.i18n(request).t("error.notFound.title"),
      message: kit.i18n(request).t("error.noAlert", { id }),
    },
    404,
  );
}

function alertIdOf(raw: string): number | null {
  return /^\d{1,15}$/.test(raw) ? Number(raw) : null;
}

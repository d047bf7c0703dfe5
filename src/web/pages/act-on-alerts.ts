/**
 * Carrying out an alert action for the signed-in user: the same lifecycle functions the CLI's
 * `alerts ack|resolve|snooze` use, or a comment event; the actor is always the session's user.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { reopenSnoozed, setAlertStatus } from "../../alerts/sql/lifecycle.ts";
import { localDateTime } from "../../dates.ts";
import { type ActionRequest, statusOf } from "../alert-actions.ts";
import type { PageKit, WebDeps, WebUser } from "../kit.ts";
import { commentOnAlerts } from "../sql/inbox.ts";
import { assignAlerts } from "../sql/inbox-changes.ts";

export async function actOnAlerts(deps: WebDeps, user: WebUser, request: ActionRequest): Promise<number[]> {
  const at = deps.now();
  const status = statusOf(request.action);
  const done =
    request.action === "assign"
      ? await assignAlerts(deps.db.sql, {
          ids: request.ids,
          to: request.assignee,
          by: user.name,
          note: request.note,
          at,
        })
      : status === null
        ? await commentOnAlerts(deps.db.sql, {
            ids: request.ids,
            by: user.name,
            note: request.note ?? "",
            at,
          })
        : await setAlertStatus(deps.db.sql, {
            ids: request.ids,
            status,
            by: user.name,
            note: request.note,
            snoozedUntil: request.until,
            at,
          });
  deps.log.info({ user: user.name, action: request.action, alerts: done }, "console alert action");
  return done;
}

/** The console's day in the configured zone. */
export function consoleToday(deps: WebDeps): string {
  return localDateTime(deps.now(), deps.config.tz).date;
}

/** A snooze that has ended shows as open wherever it is looked at (as the CLI does). */
export async function reopenEndedSnoozes(deps: WebDeps): Promise<void> {
  await reopenSnoozed(deps.db.sql, consoleToday(deps), deps.now());
}

/** 400 naming every problem of an action form; nothing was changed. */
export function refuseAction(kit: PageKit, request: FastifyRequest, reply: FastifyReply, problems: string[]) {
  return kit.render(
    request,
    reply,
    "error",
    { title: kit.i18n(request).t("error.nothingChanged.title"), message: problems.join("; ") },
    400,
  );
}

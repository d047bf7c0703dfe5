/**
 * What a posted alert action asks for, checked before anything changes: the action, the ids, the
 * note and (for a snooze) its last day. Pure; the pages turn problems into a 400 page.
 */
import { isValidDate } from "../dates.ts";
import { type Translator, translatorFor } from "../i18n/messages.ts";

export type AlertAction = "ack" | "resolve" | "snooze" | "comment" | "assign";
export const ALERT_ACTIONS: readonly AlertAction[] = ["ack", "resolve", "snooze", "comment", "assign"];
export const MAX_NOTE_CHARS = 2000;

export interface ActionRequest {
  action: AlertAction;
  ids: number[];
  note: string | null;
  until: string | null;
  /** For assign: the user's name, null to assign to nobody. */
  assignee: string | null;
}

/** Reads an action form; `today` is the console's day (a snooze may not end before it). */
export function readAction(
  action: unknown,
  body: { ids?: unknown; note?: unknown; until?: unknown; assignee?: unknown },
  today: string,
  i18n: Translator = translatorFor("en"),
): { request?: ActionRequest; problems: string[] } {
  const problems: string[] = [];
  if (typeof action !== "string" || !ALERT_ACTIONS.includes(action as AlertAction)) {
    problems.push(i18n.t("action.problem.action", { allowed: ALERT_ACTIONS.join(", ") }));
  }
  const rawIds = body.ids === undefined ? [] : Array.isArray(body.ids) ? body.ids : [body.ids];
  const ids: number[] = [];
  for (const raw of rawIds) {
    if (typeof raw === "string" && /^\d{1,15}$/.test(raw)) ids.push(Number(raw));
    else problems.push(i18n.t("action.problem.id", { value: String(raw) }));
  }
  if (rawIds.length === 0) problems.push(i18n.t("action.problem.none"));
  const note = typeof body.note === "string" && body.note.trim() !== "" ? body.note.trim() : null;
  if (note !== null && note.length > MAX_NOTE_CHARS)
    problems.push(i18n.t("action.problem.noteLength", { max: MAX_NOTE_CHARS }));
  if (action === "comment" && note === null) problems.push(i18n.t("action.problem.commentNote"));
  let until: string | null = null;
  if (action === "snooze") {
    until = typeof body.until === "string" ? body.until.trim() : "";
    if (!isValidDate(until)) problems.push(i18n.t("action.problem.until"));
    else if (until < today) problems.push(i18n.t("action.problem.untilPast", { today }));
  }
  const assignee =
    action === "assign" && typeof body.assignee === "string" && body.assignee.trim() !== ""
      ? body.assignee.trim()
      : null;
  if (problems.length > 0) return { problems };
  return {
    request: { action: action as AlertAction, ids: [...new Set(ids)], note, until, assignee },
    problems,
  };
}

/** The status an action sets; a comment sets none. */
export function statusOf(action: AlertAction): "acknowledged" | "resolved" | "snoozed" | null {
  return action === "ack"
    ? "acknowledged"
    : action === "resolve"
      ? "resolved"
      : action === "snooze"
        ? "snoozed"
        : null;
}

/** A same-site path to go back to after an action, else the fallback (never another site). */
export function safeReturn(value: unknown, fallback: string): string {
  return typeof value === "string" && /^\/(?![/\\])[^\s]*$/.test(value) ? value : fallback;
}

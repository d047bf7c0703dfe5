/**
 * An alert's decision history as a document, pure: the alert (business, change, rule, status) and
 * every action on it (who acknowledged, assigned, snoozed, commented, resolved; when; their note),
 * oldest first, in the reader's language. renderPdf (src/formats/write/pdf-document.ts) prints it.
 */
import type { PdfReport } from "../formats/write/pdf-document.ts";
import type { Formats } from "../i18n/format.ts";
import type { Translator } from "../i18n/messages.ts";
import { wordOf } from "../i18n/words.ts";
import type { AlertDetail, AlertEvent } from "./sql/history.ts";

/** Whom an assignment named, from the event's details, when it says. */
function assignee(event: AlertEvent): string | null {
  const details = event.details;
  if (!details || typeof details !== "object") return null;
  for (const key of ["assignee", "assignedTo", "assigned_to", "to"]) {
    const value = (details as Record<string, unknown>)[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return null;
}

export function alertHistoryReport(
  alert: AlertDetail,
  i18n: Translator,
  formats: Formats,
  moment: { madeAt: Date; version: string },
): PdfReport {
  const id = String(alert.id);
  const made = formats.dateTime(moment.madeAt);
  const status = wordOf(i18n, "alertStatus", alert.status);
  const content = alert.content;
  const fields: [string, string][] = [];
  if (content) {
    fields.push([
      i18n.t("alertReport.business"),
      [content.name ?? "", content.taxId].filter(Boolean).join(", "),
    ]);
    fields.push([
      i18n.t("alert.changeDate"),
      i18n.t("alert.chapter", {
        day: formats.day(content.changeDate),
        chapter: wordOf(i18n, "chapter", content.chapter),
      }),
    ]);
    fields.push([
      i18n.t("alertReport.headings"),
      content.headings.map((h) => wordOf(i18n, "heading", h.heading)).join(", "),
    ]);
  }
  fields.push(
    [
      i18n.t("alert.rule"),
      alert.ruleRemovedAt ? i18n.t("alert.ruleRemoved", { rule: alert.rule }) : alert.rule,
    ],
    [i18n.t("alert.raised"), `${formats.dateTime(alert.raisedAt)} (${formats.timeZone})`],
    [
      i18n.t("alertReport.status"),
      alert.snoozedUntil
        ? i18n.t("inbox.snoozedUntil", { status, day: formats.day(alert.snoozedUntil) })
        : status,
    ],
  );
  const rows = [
    [formats.dateTime(alert.raisedAt), "regwatch", wordOf(i18n, "alertEvent", "raised"), ""],
    ...alert.events.map((e) => {
      const action = wordOf(i18n, "alertEvent", e.action);
      const to = e.action === "assigned" ? assignee(e) : null;
      const said = e.snoozedUntil
        ? i18n.t("inbox.snoozedUntil", { status: action, day: formats.day(e.snoozedUntil) })
        : to
          ? `${action} (${i18n.t("alertReport.assignedTo", { who: to })})`
          : action;
      return [formats.dateTime(e.at), e.by, said, e.note ?? ""];
    }),
  ];
  return {
    title: i18n.t("alertReport.title", { id }),
    author: `regwatch ${moment.version}`,
    madeAt: moment.madeAt,
    footer: i18n.t("alertReport.footer", { id, when: made }),
    blocks: [
      { kind: "title", text: i18n.t("alertReport.title", { id }) },
      { kind: "paragraph", text: i18n.t("evidence.madeAt", { when: made, version: moment.version }) },
      { kind: "heading", text: i18n.t("alertReport.section.alert") },
      { kind: "fields", rows: fields },
      { kind: "heading", text: i18n.t("alertReport.section.history") },
      {
        kind: "table",
        columns: [
          { title: i18n.t("alert.col.when"), share: 1.6 },
          { title: i18n.t("alert.col.who"), share: 1.2 },
          { title: i18n.t("alert.col.action"), share: 1.6 },
          { title: i18n.t("alert.col.note"), share: 3 },
        ],
        rows,
      },
    ],
  };
}

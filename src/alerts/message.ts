/**
 * The content of alert messages, built from what the database knows about each alert. Pure: the
 * same alerts give the same body, which is frozen at the first attempt and sent on every retry.
 */

import { shorten } from "../changes/format.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { formatsFor } from "../i18n/format.ts";
import type { Locale } from "../i18n/locales.ts";
import { type Translator, translatorFor } from "../i18n/messages.ts";
import { valueText } from "../i18n/values.ts";
import { wordOf } from "../i18n/words.ts";
import type { AlertContent, HeadingValue } from "./sql/outbox.ts";

export type MessageKind = "alert" | "digest" | "test";

export interface MessageInput {
  kind: MessageKind;
  rule: string;
  alerts: AlertContent[];
  /** When the message was first built; part of the frozen body. */
  createdAt: Date;
  /** The language of the text (REGWATCH_LOCALE; a rule has no user of its own); English when absent. */
  locale?: Locale;
}

/** The message's words: its language's catalog, days as that language writes them. */
interface Words {
  i18n: Translator;
  day: (day: string) => string;
}

function wordsOf(input: MessageInput): Words {
  const locale = input.locale ?? "en";
  return { i18n: translatorFor(locale), day: formatsFor(locale, "UTC").day };
}

function businessLabel(w: Words, name: string | null | undefined, taxId: string): string {
  return w.i18n.t("mail.business", { name: name?.trim() || w.i18n.t("name.unknown"), taxId });
}

/** One changed heading as a line: `Heading: old → new`, or that its values are not parsed yet. */
function changeText(w: Words, h: HeadingValue, maxChars?: number): string {
  const heading = wordOf(w.i18n, "heading", h.heading);
  if (!("oldValue" in h) && !("newValue" in h)) return w.i18n.t("mail.notParsed", { heading });
  const value = (v: unknown) => {
    const text = valueText(w.i18n, h.heading, v);
    return maxChars === undefined ? text : shorten(text, maxChars);
  };
  return w.i18n.t("change.line", { heading, before: value(h.oldValue), after: value(h.newValue) });
}

interface HeadingJson {
  heading: string;
  old_value?: unknown;
  new_value?: unknown;
  order_ambiguous?: true;
  note?: string;
}

/**
 * Said of a heading whose values of the day cannot be put in order (several changes of it that
 * day, or one file giving it twice, with no chain of old and new values): its new value is what
 * this change brought, not necessarily what held after the day, so it is not presented as current.
 */
export function ambiguityNote(heading: string, day: string, words?: Words): string {
  const w = words ?? { i18n: translatorFor("en"), day: (d: string) => d };
  return w.i18n.t("mail.ambiguous", { heading: wordOf(w.i18n, "heading", heading), day: w.day(day) });
}

function alertJson(a: AlertContent) {
  return {
    alert_id: a.alertId,
    tax_id: a.taxId,
    name: a.name,
    change_date: a.changeDate,
    chapter: a.chapter,
    lists: a.lists,
    headings: a.headings.map((h): HeadingJson => {
      const out: HeadingJson = { heading: h.heading };
      if ("oldValue" in h) out.old_value = h.oldValue ?? null;
      if ("newValue" in h) out.new_value = h.newValue ?? null;
      if (h.orderAmbiguous) {
        out.order_ambiguous = true;
        out.note = ambiguityNote(h.heading, a.changeDate);
      }
      return out;
    }),
  };
}

/**
 * A Standard Webhooks payload: `type`, `timestamp`, `data`, and `text`, the summary a chat tool
 * (Slack, Teams, Mattermost incoming webhooks) shows. One alert is `business.changed` with the
 * alert's fields in `data`; a digest lists every alert of the run, oldest change first.
 */
export function webhookBody(input: MessageInput): Record<string, unknown> {
  const timestamp = input.createdAt.toISOString();
  const w = wordsOf(input);
  if (input.kind === "test") {
    const message = w.i18n.t("mail.test.webhookMessage");
    return {
      type: "test",
      timestamp,
      text: w.i18n.t("mail.test.webhookText", { rule: input.rule, message }),
      data: { rule: input.rule, test: true, message },
    };
  }
  const text = summaryText(input, w);
  if (input.kind === "digest") {
    return {
      type: "digest",
      timestamp,
      text,
      data: {
        rule: input.rule,
        alert_ids: input.alerts.map((a) => a.alertId),
        alerts: input.alerts.map(alertJson),
      },
    };
  }
  const [only] = input.alerts;
  return {
    type: "business.changed",
    timestamp,
    text,
    data: { rule: input.rule, ...(only ? alertJson(only) : {}) },
  };
}

/** Longest value a chat line shows in full: a few account numbers or names, not a whole document. */
const CHAT_VALUE = 200;

/** One change as a line: the business, the day, and each heading's values as a person reads them. */
function changeSummary(w: Words, a: AlertContent): string {
  const headings = a.headings.map((h) => {
    const note = h.orderAmbiguous ? ` (${ambiguityNote(h.heading, a.changeDate, w)})` : "";
    return `${changeText(w, h, CHAT_VALUE)}${note}`;
  });
  return terminalSafe(
    w.i18n.t("mail.changeLine", {
      business: businessLabel(w, a.name, a.taxId),
      day: w.day(a.changeDate),
      changes: headings.join("; "),
    }),
  );
}

/** The hint how to learn a name, once per message, when some business in it has none. */
function nameHint(w: Words, alerts: readonly AlertContent[]): string[] {
  return alerts.some((a) => !a.name?.trim()) ? [w.i18n.t("mail.nameHint")] : [];
}

/**
 * The text of a webhook body: one line for one alert; for a digest, a first line saying how
 * many changes, then a line per change, oldest first.
 */
function summaryText(input: MessageInput, w: Words): string {
  if (input.kind === "alert") {
    const [only] = input.alerts;
    const change = only ? changeSummary(w, only) : w.i18n.t("mail.webhook.aChange");
    return [w.i18n.t("mail.webhook.one", { rule: input.rule, change }), ...nameHint(w, input.alerts)].join(
      "\n",
    );
  }
  return [
    w.i18n.t("mail.webhook.digest", { rule: input.rule, count: input.alerts.length }),
    ...input.alerts.map((a) => `- ${changeSummary(w, a)}`),
    ...nameHint(w, input.alerts),
  ].join("\n");
}

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

/** A readable e-mail: the change feed of the alert or digest, as plain text and HTML. */
export function emailContent(input: MessageInput): EmailContent {
  const w = wordsOf(input);
  const t = w.i18n.t;
  if (input.kind === "test") {
    const text = t("mail.test.text", { rule: input.rule });
    return {
      subject: t("mail.test.subject", { rule: input.rule }),
      text: `${text}\n`,
      html: `<p>${escapeHtml(text)}</p>`,
    };
  }
  const first = input.alerts[0];
  const subject = terminalSafe(
    input.kind === "digest"
      ? t("mail.subject.digest", { count: input.alerts.length, rule: input.rule })
      : t("mail.subject.one", {
          business: first ? businessLabel(w, first.name, first.taxId) : t("mail.aBusiness"),
          rule: input.rule,
        }),
  );
  const note = (a: AlertContent, h: HeadingValue) =>
    h.orderAmbiguous ? ambiguityNote(h.heading, a.changeDate, w) : undefined;
  const hint = nameHint(w, input.alerts);
  const textBlocks = input.alerts.map((a) => {
    const lines = [
      t("mail.alertLine", {
        id: String(a.alertId),
        business: businessLabel(w, a.name, a.taxId),
        day: w.day(a.changeDate),
        lists: a.lists.join(", ") || "-",
      }),
      ...a.headings.map((h) => {
        const why = note(a, h);
        return `  ${changeText(w, h)}${why ? ` (${why})` : ""}`;
      }),
    ];
    // Each line escaped on its own: a value's newline must not start a line of its own.
    return lines.map(terminalSafe).join("\n");
  });
  const htmlBlocks = input.alerts.map((a) => {
    const rows = a.headings
      .map((h) => {
        const parsed = "oldValue" in h || "newValue" in h;
        const why = note(a, h);
        const old = parsed ? valueText(w.i18n, h.heading, h.oldValue) : "";
        const now = parsed ? valueText(w.i18n, h.heading, h.newValue) : t("mail.notParsedCell");
        const heading = wordOf(w.i18n, "heading", h.heading);
        return `<tr><td title="${escapeHtml(h.heading)}">${escapeHtml(heading)}</td><td>${escapeHtml(old)}</td><td>${escapeHtml(now)}${why ? `<br><em>${escapeHtml(why)}</em>` : ""}</td></tr>`;
      })
      .join("");
    const business = businessLabel(w, a.name, a.taxId);
    const lists = a.lists.join(", ") || "-";
    const head = `<tr><th>${escapeHtml(t("mail.col.heading"))}</th><th>${escapeHtml(t("mail.col.old"))}</th><th>${escapeHtml(t("mail.col.new"))}</th></tr>`;
    return `<h3>${escapeHtml(t("mail.htmlAlert", { id: String(a.alertId), business }))}</h3><p>${escapeHtml(t("mail.htmlChange", { day: w.day(a.changeDate), lists }))}</p><table border="1" cellpadding="4">${head}${rows}</table>`;
  });
  return {
    subject,
    text: `${[...textBlocks, ...hint].join("\n\n")}\n`,
    html: `<html lang="${input.locale ?? "en"}"><body><p>${escapeHtml(t("mail.htmlRule", { rule: input.rule }))}</p>${htmlBlocks.join("")}${hint.map((h) => `<p>${escapeHtml(h)}</p>`).join("")}</body></html>`,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

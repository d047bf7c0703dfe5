/**
 * The content of alert messages, built from what the database knows about each alert. Pure: the
 * same alerts give the same body, which is frozen at the first attempt and sent on every retry.
 */
import type { AlertContent, HeadingValue } from "../db/alerts-outbox.ts";
import { businessLabel, changeText, headingValue, NAME_UNKNOWN_HINT } from "../feed/format.ts";
import { terminalSafe } from "../feed/terminal-text.ts";

export type MessageKind = "alert" | "digest" | "test";

export interface MessageInput {
  kind: MessageKind;
  rule: string;
  alerts: AlertContent[];
  /** When the message was first built; part of the frozen body. */
  createdAt: Date;
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
export function ambiguityNote(heading: string, day: string): string {
  return `several values of ${heading} on ${day} in no known order: the new value may not be the current one`;
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
  if (input.kind === "test") {
    const message = "Test message from regwatch: no business changed.";
    return {
      type: "test",
      timestamp,
      text: `[regwatch TEST] rule ${input.rule}: ${message}`,
      data: { rule: input.rule, test: true, message },
    };
  }
  const text = summaryText(input);
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
function changeSummary(a: AlertContent): string {
  const headings = a.headings.map((h) => {
    const note = h.orderAmbiguous ? ` (${ambiguityNote(h.heading, a.changeDate)})` : "";
    return `${changeText(h, { maxChars: CHAT_VALUE })}${note}`;
  });
  return terminalSafe(`${businessLabel(a.name, a.taxId)} on ${a.changeDate}: ${headings.join("; ")}`);
}

/** The hint how to learn a name, once per message, when some business in it has none. */
function nameHint(alerts: readonly AlertContent[]): string[] {
  return alerts.some((a) => !a.name?.trim()) ? [NAME_UNKNOWN_HINT] : [];
}

/**
 * The text of a webhook body: one line for one alert; for a digest, a first line saying how
 * many changes, then a line per change, oldest first.
 */
function summaryText(input: MessageInput): string {
  if (input.kind === "alert") {
    const [only] = input.alerts;
    return [
      `regwatch (rule ${input.rule}): ${only ? changeSummary(only) : "a change"}`,
      ...nameHint(input.alerts),
    ].join("\n");
  }
  return [
    `regwatch (rule ${input.rule}): ${input.alerts.length} change(s)`,
    ...input.alerts.map((a) => `- ${changeSummary(a)}`),
    ...nameHint(input.alerts),
  ].join("\n");
}

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

/** A readable e-mail: the change feed of the alert or digest, as plain text and HTML. */
export function emailContent(input: MessageInput): EmailContent {
  if (input.kind === "test") {
    const text = `TEST MESSAGE from regwatch for rule "${input.rule}". No business changed; this checks the delivery path.`;
    return {
      subject: `[regwatch TEST] rule ${input.rule}`,
      text: `${text}\n`,
      html: `<p>${escapeHtml(text)}</p>`,
    };
  }
  const subject = terminalSafe(
    input.kind === "digest"
      ? `[regwatch] ${input.alerts.length} change(s) for rule ${input.rule}`
      : `[regwatch] ${input.alerts[0] ? businessLabel(input.alerts[0].name, input.alerts[0].taxId) : "a business"} changed (rule ${input.rule})`,
  );
  const note = (a: AlertContent, h: HeadingValue) =>
    h.orderAmbiguous ? ambiguityNote(h.heading, a.changeDate) : undefined;
  const hint = nameHint(input.alerts);
  const textBlocks = input.alerts.map((a) => {
    const lines = [
      `Alert ${a.alertId}: ${businessLabel(a.name, a.taxId)}, change of ${a.changeDate}, lists: ${a.lists.join(", ") || "-"}`,
      ...a.headings.map((h) => {
        const why = note(a, h);
        return `  ${changeText(h)}${why ? ` (${why})` : ""}`;
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
        return `<tr><td>${escapeHtml(h.heading)}</td><td>${escapeHtml(parsed ? headingValue(h.heading, h.oldValue) : "")}</td><td>${escapeHtml(parsed ? headingValue(h.heading, h.newValue) : "changed (values not parsed yet)")}${why ? `<br><em>${escapeHtml(why)}</em>` : ""}</td></tr>`;
      })
      .join("");
    return `<h3>Alert ${a.alertId}: ${escapeHtml(businessLabel(a.name, a.taxId))}</h3><p>Change of ${escapeHtml(a.changeDate)}; lists: ${escapeHtml(a.lists.join(", ") || "-")}</p><table border="1" cellpadding="4"><tr><th>heading</th><th>old</th><th>new</th></tr>${rows}</table>`;
  });
  return {
    subject,
    text: `${[...textBlocks, ...hint].join("\n\n")}\n`,
    html: `<html><body><p>Rule ${escapeHtml(input.rule)}</p>${htmlBlocks.join("")}${hint.map((h) => `<p>${escapeHtml(h)}</p>`).join("")}</body></html>`,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

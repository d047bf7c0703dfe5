/**
 * Size bound of digests: a run that raised thousands of alerts sends the first N changes (oldest
 * first) and says how many more there are and where to read them, instead of a body no chat tool
 * or mail server takes. Applied to the message input before any channel formats it.
 */
import type { EmailContent, MessageInput } from "./message.ts";

/** Changes listed in one digest; the rest are counted and pointed to. */
export const DIGEST_MAX_CHANGES = 200;

export interface BoundedInput {
  input: MessageInput;
  /** Alerts of the message not listed in it. */
  more: number;
  /** Where a person reads the whole list (a command; the console's address when one is set). */
  seeAlso: string;
}

export function boundDigest(input: MessageInput, max = DIGEST_MAX_CHANGES): BoundedInput {
  const more = Math.max(0, input.alerts.length - max);
  const days = input.alerts.map((a) => a.changeDate).sort();
  const since = days[0];
  const seeAlso = `regwatch changes${since ? ` --since ${since}` : ""}`;
  if (more === 0) return { input, more, seeAlso };
  return { input: { ...input, alerts: input.alerts.slice(0, max) }, more, seeAlso };
}

function moreLine(bound: BoundedInput): string {
  return `…and ${bound.more} more change(s) not listed here: see \`${bound.seeAlso}\`.`;
}

/** The webhook body with the count of unlisted alerts and where to see them. */
export function boundWebhookBody(
  body: Record<string, unknown>,
  bound: BoundedInput,
): Record<string, unknown> {
  if (bound.more === 0) return body;
  const data = (body.data ?? {}) as Record<string, unknown>;
  // The summary a chat tool shows sits at the top of the body (message.ts); the count goes there too.
  const text = typeof body.text === "string" ? `${body.text}\n${moreLine(bound)}` : moreLine(bound);
  return {
    ...body,
    text,
    data: {
      ...data,
      more: { count: bound.more, total: bound.more + bound.input.alerts.length, see: bound.seeAlso },
    },
  };
}

/** The e-mail with a closing line naming how many changes are not listed and where they are. */
export function boundEmailContent(content: EmailContent, bound: BoundedInput): EmailContent {
  if (bound.more === 0) return content;
  const line = moreLine(bound);
  const escaped = line.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = content.html.includes("</body>")
    ? content.html.replace("</body>", `<p>${escaped}</p></body>`)
    : `${content.html}<p>${escaped}</p>`;
  return { ...content, text: `${content.text}\n${line}\n`, html };
}

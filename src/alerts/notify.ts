/**
 * NOTIFY channel: pg_notify on the rule's channel, for systems that LISTEN on Postgres. Sent on its
 * own (autocommit) statement like any other channel, never inside a held transaction.
 */

import { redactError } from "../secrets.ts";
import type { MessageInput } from "./message.ts";
import type { AttemptOutcome } from "./retry-policy.ts";
import type { Runner } from "./sql/outbox.ts";

/** pg_notify refuses payloads of 8000 bytes or more; this leaves room to spare. */
export const NOTIFY_MAX_BYTES = 7900;

export async function sendNotify(sql: Runner, channel: string, payload: string): Promise<AttemptOutcome> {
  try {
    await sql`select pg_notify(${channel}, ${payload})`;
    return { kind: "sent", reply: "notified" };
  } catch (error) {
    // 22023 (invalid parameter, e.g. an empty channel name) does not get better by retrying.
    const code = (error as { code?: string }).code;
    const message = `pg_notify failed: ${redactError(error)}`;
    return code === "22023" ? { kind: "dead", error: message } : { kind: "retry", error: message };
  }
}

/**
 * A small payload for pg_notify: the message id, type and rule, then as many alerts (id, tax id,
 * headings) as fit, and `more` with how many did not. Built in one pass over the alerts, each
 * serialised once (a digest of 16,000 alerts used to be serialised once per alert dropped).
 */
export function notifyPayload(
  input: MessageInput,
  messageId: string,
  options: { maxBytes?: number; notListed?: number } = {},
): string {
  const maxBytes = options.maxBytes ?? NOTIFY_MAX_BYTES;
  const notListed = options.notListed ?? 0;
  const head = JSON.stringify({ id: messageId, type: notifyType(input.kind), rule: input.rule }).slice(0, -1);
  // Room kept for `,"more":N` with any count this message could have.
  const moreRoom = `,"more":${input.alerts.length + notListed}`.length;
  let size = Buffer.byteLength(head) + ',"alerts":[]}'.length + moreRoom;
  const parts: string[] = [];
  for (const a of input.alerts) {
    const item = JSON.stringify({
      alert_id: a.alertId,
      tax_id: a.taxId,
      headings: a.headings.map((h) => h.heading),
    });
    const added = Buffer.byteLength(item) + (parts.length > 0 ? 1 : 0);
    if (size + added >= maxBytes) break;
    parts.push(item);
    size += added;
  }
  const more = input.alerts.length - parts.length + notListed;
  return `${head},"alerts":[${parts.join(",")}]${more > 0 ? `,"more":${more}` : ""}}`;
}

function notifyType(kind: MessageInput["kind"]): string {
  return kind === "alert" ? "business.changed" : kind;
}

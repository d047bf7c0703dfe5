/** `alerts test NAME`: one clearly marked test message through the rule's channel, sent at once. */
import { randomUUID } from "node:crypto";
import type { Sql } from "../db/connect.ts";
import { type AlertConfig, blockedReason } from "./deliver.ts";
import { createMailer, recipientsOf, sendEmailOutside } from "./email.ts";
import { emailContent, type MessageInput, webhookBody } from "./message.ts";
import { notifyPayload, sendNotify } from "./notify.ts";
import type { AttemptOutcome } from "./retry-policy.ts";
import type { AlertRuleRow } from "./sql/rules.ts";
import { sendWebhook } from "./webhook.ts";

export async function sendTestMessage(
  sql: Sql,
  config: AlertConfig,
  rule: AlertRuleRow,
  now: Date = new Date(),
): Promise<{ messageId: string; outcome: AttemptOutcome }> {
  const messageId = `msg_test_${randomUUID().replaceAll("-", "")}`;
  const input: MessageInput = {
    kind: "test",
    rule: rule.name,
    alerts: [],
    createdAt: now,
    ...(config.locale ? { locale: config.locale } : {}),
  };
  const blocked = blockedReason(rule.channel, config, Boolean(config.smtpUrl && config.mailFrom));
  if (blocked) return { messageId, outcome: { kind: "dead", error: blocked } };
  if (rule.channel === "webhook") {
    const outcome = await sendWebhook(
      { url: rule.target, messageId, body: JSON.stringify(webhookBody(input)), now },
      {
        secret: config.webhookSecret!,
        timeoutMs: config.requestTimeoutMs,
        allowPrivate: config.alertAllowPrivateTargets,
      },
    );
    return { messageId, outcome };
  }
  if (rule.channel === "email") {
    let mailer: Awaited<ReturnType<typeof createMailer>> | undefined;
    const made = async () => {
      mailer = await createMailer({
        smtpUrl: config.smtpUrl!,
        from: config.mailFrom!,
        timeoutMs: config.requestTimeoutMs,
      });
      return mailer;
    };
    try {
      // One deadline for the whole transfer, as a delivery has.
      const outcome = await sendEmailOutside(
        made,
        { to: recipientsOf(rule.target), from: config.mailFrom!, messageId, content: emailContent(input) },
        AbortSignal.timeout(config.requestTimeoutMs),
        config.alertAllowPrivateTargets,
      );
      return { messageId, outcome };
    } finally {
      mailer?.close();
    }
  }
  const outcome = await sql.begin((tx) => sendNotify(tx, rule.target, notifyPayload(input, messageId)));
  return { messageId, outcome };
}

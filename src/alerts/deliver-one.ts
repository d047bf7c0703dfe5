/**
 * One claimed message: given up when too old, held while its channel lacks configuration, else
 * sent through its receiver's gate (concurrency, circuit breaker) within one deadline inside its
 * lease, and its outcome recorded under the claim's lease. A send that throws instead of
 * answering (an error of regwatch's own) is charged as a failed attempt (pass-failures.ts).
 * Nothing here holds a transaction while a receiver answers.
 */

import { redactAddresses, redactSecrets } from "../secrets.ts";
import { type AlertConfig, retryPolicy } from "./delivery-settings.ts";
import { recipientsDue, sendEmailOutside } from "./email.ts";
import type { EmailContent } from "./message.ts";
import { sendNotify } from "./notify.ts";
import type { Claimed, Pass } from "./pass.ts";
import { chargeAttempt, describeThrown } from "./pass-failures.ts";
import { type AttemptOutcome, isTooOld, nextState, tooOldReason } from "./retry-policy.ts";
import type { DeliveryRow } from "./sql/outbox.ts";
import { recordAttempt, releaseLease } from "./sql/outbox.ts";
import { sendWebhook } from "./webhook.ts";

/** A missing secret or server is the operator's to fix: the message waits this long, attempts untouched. */
const BLOCKED_RETRY_MS = 60_000;

/** A send not started: its receiver's slot came too late to finish inside the lease. */
const LATE = "late" as const;

/** A send that threw rather than returning the receiver's answer. */
interface Thrown {
  thrown: unknown;
}

export async function deliverOne(pass: Pass, { row, payload, sendBy }: Claimed): Promise<void> {
  const { deps, now, token, report } = pass;
  const { config, log, sql } = deps;
  const policy = retryPolicy(config);
  const fields = { delivery: row.id, messageId: row.messageId, rule: row.ruleName, channel: row.channel };
  if (isTooOld(row.createdAt, now(), policy.giveUpMs!)) {
    const error = tooOldReason(row.attempts, policy.giveUpMs!);
    await recordAttempt(sql, row.id, token, {
      status: "dead",
      nextAttemptAt: now(),
      at: now(),
      httpStatus: null,
      reply: null,
      error,
      attempted: false,
    });
    pass.held.delete(row.id);
    report.dead++;
    log.error({ ...fields, err: error }, "alert message dead: not retried");
    return;
  }
  const blocked = blockedReason(row.channel, config, pass.mailer !== undefined);
  if (blocked) {
    report.blocked++;
    await releaseLease(sql, row.id, token, {
      retryAt: new Date(now().getTime() + BLOCKED_RETRY_MS),
      error: blocked,
    });
    pass.held.delete(row.id);
    log.warn(fields, blocked);
    return;
  }
  const key = `${row.channel} ${row.target}`;
  let at = now();
  const gated = await pass.gates.run(
    key,
    row.id,
    async (): Promise<AttemptOutcome | typeof LATE | Thrown> => {
      at = now();
      // One deadline for the whole send, inside the lease: a transfer still going is aborted.
      const budgetMs = Math.min(config.requestTimeoutMs, Math.floor(sendBy - performance.now()));
      if (budgetMs <= 0) return LATE;
      try {
        return await send(pass, row, payload, at, AbortSignal.timeout(budgetMs));
      } catch (thrown) {
        return { thrown };
      }
    },
    // A send that threw says nothing of the receiver: its breaker does not count it.
    (o) =>
      o === LATE || "thrown" in o
        ? "neutral"
        : o.kind === "sent"
          ? "ok"
          : o.kind === "retry"
            ? "failed"
            : "neutral",
    deps.signal,
  );
  if (gated === "paused" || gated.result === LATE) {
    report.deferred++;
    await releaseLease(sql, row.id, token);
    pass.held.delete(row.id);
    if (gated !== "paused")
      log.warn(fields, "alert message not sent: too little of its lease was left; the next pass sends it");
    return;
  }
  const outcome = gated.result;
  if ("thrown" in outcome) {
    const error = `the ${row.channel} send failed inside regwatch, not at the receiver: ${describeThrown(outcome.thrown)}`;
    await chargeAttempt(sql, pass, row, error, at);
    return;
  }
  if (gated.pausedUntil)
    log.warn(
      { target: redactSecrets(key), until: gated.pausedUntil },
      "receiver paused after failing several messages in a row",
    );
  report.attempted++;
  const attempts = row.attempts + 1;
  const next = nextState(outcome, attempts, policy, at, deps.random ?? Math.random, row.createdAt);
  const error =
    outcome.kind === "sent"
      ? null
      : redactAddresses(redactSecrets(next.reason ? `${outcome.error} (${next.reason})` : outcome.error));
  const recipients =
    "recipients" in outcome
      ? { ...(row.recipients ?? {}), ...(outcome.recipients as Record<string, string>) }
      : undefined;
  const recorded = await recordAttempt(sql, row.id, token, {
    status: next.status,
    nextAttemptAt: next.nextAttemptAt,
    at,
    httpStatus: outcome.httpStatus ?? null,
    reply: outcome.reply === undefined ? null : redactAddresses(outcome.reply),
    error,
    recipients,
  });
  pass.held.delete(row.id);
  if (!recorded) {
    // The lease ran out during the send and another deliverer holds the message now: its record wins.
    log.warn(fields, "alert message outcome not recorded: its lease ran out during the attempt");
    return;
  }
  const logged = { ...fields, attempts };
  if (next.status === "sent") {
    report.sent++;
    log.info(logged, "alert message delivered");
  } else if (next.status === "dead") {
    report.dead++;
    log.error({ ...logged, err: error }, "alert message dead: not retried");
  } else {
    report.retrying++;
    log.warn({ ...logged, err: error, next: next.nextAttemptAt }, "alert message not delivered; will retry");
  }
}

async function send(
  pass: Pass,
  row: DeliveryRow,
  payload: Record<string, unknown>,
  at: Date,
  deadline: AbortSignal,
): Promise<AttemptOutcome> {
  const { config, sql } = pass.deps;
  if (row.channel === "webhook")
    return sendWebhook(
      { url: row.target, messageId: row.messageId, body: JSON.stringify(payload), now: at },
      {
        secret: config.webhookSecret!,
        timeoutMs: config.requestTimeoutMs,
        signal: deadline,
        allowPrivate: config.alertAllowPrivateTargets,
      },
    );
  if (row.channel === "email") {
    const to = recipientsDue(row.target, row.recipients);
    if (to.length === 0) return { kind: "sent", reply: "every recipient accepted it before" };
    return sendEmailOutside(
      () => pass.mailer!.get(),
      { to, from: config.mailFrom!, messageId: row.messageId, content: payload.email as EmailContent },
      deadline,
      config.alertAllowPrivateTargets,
    );
  }
  return sendNotify(sql, row.target, String(payload.notify));
}

export function blockedReason(channel: string, config: AlertConfig, hasMailer: boolean): string | undefined {
  if (channel === "webhook" && !config.webhookSecret)
    return "REGWATCH_WEBHOOK_SECRET is not set: webhook messages wait until it is";
  if (channel === "email" && !hasMailer)
    return "REGWATCH_SMTP_URL and REGWATCH_MAIL_FROM must both be set: e-mail messages wait until they are";
  return undefined;
}

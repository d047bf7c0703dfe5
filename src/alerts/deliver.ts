/**
 * One delivery pass over the outbox: reopen ended snoozes, raise the alerts of every run not yet
 * scanned, then try each due message once. Each message is claimed, sent and recorded in one
 * transaction, so a crash before the commit leaves it pending (sent again later, with the same
 * id: at least once) and two deliverers never send one message at the same time. Messages go
 * oldest change first, and one about a business waits while an older one to the same receiver
 * about it is pending (retrying after a failure, or held by another deliverer).
 */
import type { TransactionSql } from "postgres";
import type { Config } from "../config.ts";
import { localDateTime } from "../dates.ts";
import { reopenSnoozed } from "../db/alerts-lifecycle.ts";
import {
  alertContents,
  claimDelivery,
  type DeliveryRow,
  OUTBOX_START,
  type OutboxPlace,
  type Runner,
  recordAttempt,
  recordBlocked,
  savePayload,
} from "../db/alerts-outbox.ts";
import { scanRun, unscannedRuns } from "../db/alerts-raise.ts";
import type { Sql } from "../db/connect.ts";
import type { Logger } from "../logger.ts";
import { redactJson, redactSecrets } from "../secrets.ts";
import { createMailer, sendEmail } from "./email.ts";
import { emailContent, type MessageInput, notifyPayload, webhookBody } from "./message.ts";
import { sendNotify } from "./notify.ts";
import { type AttemptOutcome, nextState } from "./retry-policy.ts";
import { sendWebhook } from "./webhook.ts";

/** A missing secret or server is the operator's to fix: the message waits this long, attempts untouched. */
const BLOCKED_RETRY_MS = 60_000;
const MAX_RETRY_AFTER_MS = 24 * 3600_000;

export type AlertConfig = Pick<
  Config,
  | "webhookSecret"
  | "smtpUrl"
  | "mailFrom"
  | "alertRetryBaseMs"
  | "alertMaxAttempts"
  | "requestTimeoutMs"
  | "tz"
>;

export interface DeliverDeps {
  sql: Sql;
  config: AlertConfig;
  log: Logger;
  now?: () => Date;
  random?: () => number;
}

export interface DeliveryReport {
  raised: number;
  reopened: number;
  attempted: number;
  sent: number;
  retrying: number;
  dead: number;
  blocked: number;
  /**
   * Left for a later pass: an earlier message to the same target failed in this one, or an older
   * message to it about the same business is still pending.
   */
  deferred: number;
}

/** Raises alerts for every finished run not scanned yet; returns how many were raised. */
export async function raisePendingAlerts(deps: Pick<DeliverDeps, "sql" | "log">): Promise<number> {
  let raised = 0;
  for (const runId of await unscannedRuns(deps.sql)) {
    const result = await scanRun(deps.sql, runId);
    for (const r of result?.raised ?? []) {
      raised += r.count;
      deps.log.info({ runId, rule: r.rule, alerts: r.count }, "alerts raised");
    }
  }
  return raised;
}

export async function deliverAlerts(
  deps: DeliverDeps,
  options: { ignoreBackoff?: boolean; raiseOnly?: boolean } = {},
): Promise<DeliveryReport> {
  const now = deps.now ?? (() => new Date());
  const report: DeliveryReport = {
    raised: 0,
    reopened: 0,
    attempted: 0,
    sent: 0,
    retrying: 0,
    dead: 0,
    blocked: 0,
    deferred: 0,
  };
  report.reopened = await reopenSnoozed(deps.sql, localDateTime(now(), deps.config.tz).date, now());
  report.raised = await raisePendingAlerts(deps);
  if (options.raiseOnly) return report;
  const mailer =
    deps.config.smtpUrl && deps.config.mailFrom
      ? createMailer({
          smtpUrl: deps.config.smtpUrl,
          from: deps.config.mailFrom,
          timeoutMs: deps.config.requestTimeoutMs,
        })
      : undefined;
  try {
    let after: OutboxPlace = OUTBOX_START;
    // A receiver that failed once in this pass is not tried again until the next pass: a target
    // that is down costs one timeout per pass, not one per message.
    const failing = new Set<string>();
    for (;;) {
      const done = await deps.sql.begin(async (tx) => {
        const row = await claimDelivery(tx, {
          now: now(),
          ignoreBackoff: Boolean(options.ignoreBackoff),
          after,
        });
        if (!row) return true;
        after = { oldestChange: row.oldestChange, id: row.id };
        const key = `${row.channel} ${row.target}`;
        // A message about a business waits for every older one to its receiver about it.
        if (failing.has(key) || row.waitsForOlder) report.deferred++;
        else if ((await attempt(tx, row, deps, now, mailer, report)) === "pending") failing.add(key);
        return false;
      });
      if (done) break;
    }
  } finally {
    mailer?.close();
  }
  return report;
}

async function attempt(
  tx: Runner,
  row: DeliveryRow,
  deps: DeliverDeps,
  now: () => Date,
  mailer: ReturnType<typeof createMailer> | undefined,
  report: DeliveryReport,
): Promise<"sent" | "pending" | "dead" | "blocked"> {
  const { config, log } = deps;
  const blocked = blockedReason(row.channel, config, mailer !== undefined);
  if (blocked) {
    report.blocked++;
    await recordBlocked(tx, row.id, blocked, new Date(now().getTime() + BLOCKED_RETRY_MS));
    log.warn({ delivery: row.id, rule: row.ruleName }, blocked);
    return "blocked";
  }
  let payload = row.payload as Record<string, unknown> | null;
  const input = await messageInput(tx, row, now());
  if (!payload) {
    payload = (await savePayload(tx, row.id, redactJson(webhookBody(input)))) as Record<string, unknown>;
  }
  report.attempted++;
  const at = now();
  const outcome = await send(tx, row, payload, input, deps, at, mailer);
  const attempts = row.attempts + 1;
  const next = nextState(
    outcome,
    attempts,
    {
      baseMs: config.alertRetryBaseMs,
      maxAttempts: config.alertMaxAttempts,
      maxRetryAfterMs: MAX_RETRY_AFTER_MS,
    },
    at,
    deps.random ?? Math.random,
  );
  const error =
    outcome.kind === "sent"
      ? null
      : redactSecrets(
          next.exhausted ? `${outcome.error} (gave up after ${attempts} attempts)` : outcome.error,
        );
  await recordAttempt(tx, row.id, {
    status: next.status,
    nextAttemptAt: next.nextAttemptAt,
    at,
    httpStatus: outcome.httpStatus ?? null,
    reply: outcome.reply ?? null,
    error,
  });
  const fields = {
    delivery: row.id,
    messageId: row.messageId,
    rule: row.ruleName,
    channel: row.channel,
    attempts,
  };
  if (next.status === "sent") {
    report.sent++;
    log.info(fields, "alert message delivered");
  } else if (next.status === "dead") {
    report.dead++;
    log.error({ ...fields, err: error }, "alert message dead: not retried");
  } else {
    report.retrying++;
    log.warn({ ...fields, err: error, next: next.nextAttemptAt }, "alert message not delivered; will retry");
  }
  return next.status;
}

async function send(
  tx: Runner,
  row: DeliveryRow,
  payload: Record<string, unknown>,
  input: MessageInput,
  deps: DeliverDeps,
  at: Date,
  mailer: ReturnType<typeof createMailer> | undefined,
): Promise<AttemptOutcome> {
  const { config } = deps;
  if (row.channel === "webhook")
    return sendWebhook(
      { url: row.target, messageId: row.messageId, body: JSON.stringify(payload), now: at },
      { secret: config.webhookSecret!, timeoutMs: config.requestTimeoutMs },
    );
  if (row.channel === "email")
    return sendEmail(mailer!, {
      to: row.target,
      from: config.mailFrom!,
      messageId: row.messageId,
      content: redactJson(emailContent(input)),
    });
  return sendNotify(tx as TransactionSql, row.target, redactSecrets(notifyPayload(input, row.messageId)));
}

/** The message's alerts as they are now; a webhook resends the frozen body instead. */
async function messageInput(tx: Runner, row: DeliveryRow, now: Date): Promise<MessageInput> {
  const frozen = (row.payload as { timestamp?: string } | null)?.timestamp;
  return {
    kind: row.kind,
    rule: row.ruleName,
    alerts: await alertContents(tx, row.alertIds),
    createdAt: frozen ? new Date(frozen) : now,
  };
}

export function blockedReason(channel: string, config: AlertConfig, hasMailer: boolean): string | undefined {
  if (channel === "webhook" && !config.webhookSecret)
    return "REGWATCH_WEBHOOK_SECRET is not set: webhook messages wait until it is";
  if (channel === "email" && !hasMailer)
    return "REGWATCH_SMTP_URL and REGWATCH_MAIL_FROM must both be set: e-mail messages wait until they are";
  return undefined;
}

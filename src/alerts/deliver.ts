/**
 * One delivery pass over the outbox: reopen ended snoozes, raise the alerts of every run not yet
 * scanned, then deliver what is due, batch by batch. Each batch is claimed under a lease in one
 * short transaction that also freezes every body not frozen yet; the transaction commits before
 * anything is sent, so no receiver, however slow, holds a transaction (or the run lock) open.
 * Each outcome is then recorded on its own under the claim's token. A deliverer that dies after
 * sending leaves the lease to run out: the message is sent again with its id and frozen body.
 * Messages go oldest change first, and one about a business waits while an older one to the same
 * receiver about it is pending; up to N go to one receiver at once (see target-gate.ts). Every
 * send has one overall deadline inside its lease (the lease less a margin, and at most the request
 * timeout): a transfer still going then is aborted and counted as a failed attempt, so no message
 * is still being sent by one deliverer when its lease lets another take it.
 */
import { randomUUID } from "node:crypto";
import type { TransactionSql } from "postgres";
import { localDateTime } from "../dates.ts";
import { reopenSnoozed } from "../db/alerts-lifecycle.ts";
import {
  alertContents,
  claimBatch,
  type DeliveryRow,
  OUTBOX_START,
  type OutboxPlace,
  savePayload,
} from "../db/alerts-outbox.ts";
import { scanRun, unscannedRuns } from "../db/alerts-raise.ts";
import type { Sql } from "../db/connect.ts";
import type { Logger } from "../logger.ts";
import { redactJson, redactSecrets } from "../secrets.ts";
import { type Claimed, type DeliveryReport, deliverOne, type Pass } from "./deliver-one.ts";
import { type AlertConfig, targetGates } from "./delivery-settings.ts";
import { type BoundedInput, boundDigest, boundEmailContent, boundWebhookBody } from "./digest-bound.ts";
import { createMailer } from "./email.ts";
import type { MessageInput } from "./message.ts";
import { notifyPayload } from "./notify.ts";
import type { TargetGates } from "./target-gate.ts";

export { blockedReason, type DeliveryReport } from "./deliver-one.ts";
export type { AlertConfig } from "./delivery-settings.ts";
export { retryPolicy, targetGates } from "./delivery-settings.ts";

/** Messages claimed per transaction. */
export const BATCH_SIZE = 32;

export interface DeliverDeps {
  sql: Sql;
  config: AlertConfig;
  log: Logger;
  now?: () => Date;
  random?: () => number;
  /** The receivers' limits and breakers; a long-lived deliverer keeps one across passes. */
  gates?: TargetGates;
  /** No new batch is claimed once this is aborted (sends in flight end within the request timeout). */
  signal?: AbortSignal;
  /** Wall-clock instant after which no new batch is claimed: a bounded pass. */
  deadline?: number;
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
  const { config } = deps;
  const mailer =
    config.smtpUrl && config.mailFrom
      ? await createMailer({
          smtpUrl: config.smtpUrl,
          from: config.mailFrom,
          timeoutMs: config.requestTimeoutMs,
        })
      : undefined;
  const pass: Pass = {
    deps,
    now,
    token: randomUUID(),
    gates: deps.gates ?? targetGates(config, now, !options.ignoreBackoff),
    mailer,
    report,
  };
  // A claimed message may wait for its receiver's free slots behind the rest of the batch.
  const leaseMs = config.requestTimeoutMs * (Math.ceil(BATCH_SIZE / config.alertTargetConcurrency) + 2);
  try {
    const stopped = () =>
      Boolean(deps.signal?.aborted) || (deps.deadline !== undefined && Date.now() >= deps.deadline);
    // The message texts, loaded at the first body to freeze (see frozenBody).
    let messages: MessageTexts | undefined;
    const claim = async (after: OutboxPlace, onlyIds?: number[]) => {
      // Read before the claim's transaction starts, so the deadline is never later than the
      // lease the database writes (from its own now(), at least this late).
      const sendBy = performance.now() + leaseMs - sendMarginMs(leaseMs);
      const inTransaction = () =>
        deps.sql.begin((tx) =>
          claimAndFreeze(
            tx,
            {
              now: now(),
              ignoreBackoff: Boolean(options.ignoreBackoff),
              after,
              limit: BATCH_SIZE,
              leaseMs,
              token: pass.token,
              skipTargets: options.ignoreBackoff ? [] : pass.gates.pausedTargets(),
              onlyIds,
            },
            deps.config.locale,
            messages,
          ),
        );
      let batch: Awaited<ReturnType<typeof inTransaction>>;
      try {
        batch = await inTransaction();
      } catch (thrown) {
        if (!(thrown instanceof MessagesNotLoaded)) throw thrown;
        // Loaded outside the claim's transaction (a managed Postgres may end one left idle while
        // a module loads), then claimed again: the rolled-back claim changed nothing.
        messages = await import("./message.ts");
        batch = await inTransaction();
      }
      return { ...batch, claimed: batch.claimed.map((c) => ({ ...c, sendBy })) };
    };
    let after: OutboxPlace = OUTBOX_START;
    while (!stopped()) {
      const batch = await claim(after);
      if (batch.last === undefined) break;
      after = batch.last;
      await settle(pass, batch.claimed);
      // A message that waited for an older one of the same batch goes once that one is settled.
      let waiting = batch.waitingIds;
      while (waiting.length > 0 && !stopped()) {
        const again = await claim(OUTBOX_START, waiting);
        if (again.claimed.length === 0) break;
        await settle(pass, again.claimed);
        waiting = again.waitingIds;
      }
      report.deferred += waiting.length;
    }
  } finally {
    mailer?.close();
  }
  return report;
}

/**
 * Time kept between a send's deadline and its lease's end: the outcome is recorded in it (and an
 * aborted transfer closed). A tenth of the lease, at least 1 s, and never more than a third.
 */
export function sendMarginMs(leaseMs: number): number {
  return Math.min(Math.max(1000, leaseMs / 10), leaseMs / 3);
}

/** Sends a claimed batch; a database failure in recording ends the pass once all sends are done. */
async function settle(pass: Pass, claimed: Claimed[]): Promise<void> {
  const settled = await Promise.allSettled(claimed.map((c) => deliverOne(pass, c)));
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failure) throw failure.reason;
}

type MessageTexts = typeof import("./message.ts");

/** A claim found a body to freeze before the message texts were loaded: it is rolled back. */
class MessagesNotLoaded extends Error {}

/** Claims a batch and freezes the body of each message claimed for its first attempt. */
async function claimAndFreeze(
  tx: TransactionSql,
  options: Parameters<typeof claimBatch>[1],
  locale: MessageInput["locale"],
  messages: MessageTexts | undefined,
): Promise<{ claimed: Omit<Claimed, "sendBy">[]; waitingIds: number[]; last?: OutboxPlace }> {
  const rows = await claimBatch(tx, options);
  const lastRow = rows.at(-1);
  const claimed: Omit<Claimed, "sendBy">[] = [];
  for (const row of rows) {
    if (row.waitsForOlder) continue;
    let payload = row.payload as Record<string, unknown> | null;
    // Frozen before the first attempt; a body frozen as a webhook's for another channel (before
    // each channel froze its own) is built once more, for the last time.
    if (!payload || !isFrozenFor(row.channel, payload)) {
      if (messages === undefined) throw new MessagesNotLoaded();
      const bound = boundDigest(await messageInput(tx, row, options.now, locale));
      const body = frozenBody(row, bound, messages);
      payload = (await savePayload(tx, row.id, body)) as Record<string, unknown>;
    }
    claimed.push({ row, payload });
  }
  return {
    claimed,
    waitingIds: rows.filter((r) => r.waitsForOlder).map((r) => r.id),
    last: lastRow ? { oldestChange: lastRow.oldestChange, id: lastRow.id } : undefined,
  };
}

/**
 * What every attempt of a message sends, per channel: the webhook body, the e-mail, the NOTIFY
 * text. The message texts (message.ts, with the catalogues and their ICU formatter) are loaded
 * at the first body to freeze, so a pass with nothing to send, as after most syncs, never loads them.
 */
function frozenBody(
  row: DeliveryRow,
  bound: BoundedInput,
  { emailContent, webhookBody }: MessageTexts,
): Record<string, unknown> {
  if (row.channel === "email")
    return {
      timestamp: bound.input.createdAt.toISOString(),
      email: redactJson(boundEmailContent(emailContent(bound.input), bound)),
    };
  if (row.channel === "notify")
    return {
      timestamp: bound.input.createdAt.toISOString(),
      notify: redactSecrets(notifyPayload(bound.input, row.messageId, { notListed: bound.more })),
    };
  return redactJson(boundWebhookBody(webhookBody(bound.input), bound));
}

function isFrozenFor(channel: DeliveryRow["channel"], payload: Record<string, unknown>): boolean {
  if (channel === "email") return typeof payload.email === "object" && payload.email !== null;
  if (channel === "notify") return typeof payload.notify === "string";
  return true;
}

/** The message's alerts as they are now, dated as the frozen body is when there is one. */
async function messageInput(
  tx: TransactionSql,
  row: DeliveryRow,
  now: Date,
  locale: MessageInput["locale"],
): Promise<MessageInput> {
  const frozen = (row.payload as { timestamp?: string } | null)?.timestamp;
  return {
    kind: row.kind,
    rule: row.ruleName,
    alerts: await alertContents(tx, row.alertIds),
    createdAt: frozen ? new Date(frozen) : now,
    ...(locale ? { locale } : {}),
  };
}

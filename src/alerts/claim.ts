/**
 * Claiming a batch of due messages for a pass: leased in one short transaction that also freezes
 * every body not frozen yet, committed before anything is sent. A body that cannot be built (its
 * texts fail, the database refuses what it holds) must not hold the outbox back: when a claim
 * fails it is made again with each body built under a savepoint of its own, and a body that fails
 * there is charged to its message as a failed attempt; the rest of the batch goes on.
 */

import type { Tx } from "../db/connect.ts";
import { redactJson, redactSecrets } from "../secrets.ts";
import { type BoundedInput, boundDigest, boundEmailContent, boundWebhookBody } from "./digest-bound.ts";
import type { MessageInput } from "./message.ts";
import { notifyPayload } from "./notify.ts";
import type { Claimed, Pass } from "./pass.ts";
import { chargeAttempt, describeThrown } from "./pass-failures.ts";
import { alertContents, claimBatch, type DeliveryRow, type OutboxPlace, savePayload } from "./sql/outbox.ts";

type MessageTexts = typeof import("./message.ts");

/** The message texts, or why they could not be loaded (each body to build then fails with it). */
type Texts = MessageTexts | { failed: unknown };

/** A claim found a body to freeze before the message texts were loaded: it is rolled back. */
class MessagesNotLoaded extends Error {}

export interface ClaimedBatch {
  claimed: Claimed[];
  /** Messages waiting for an older one to the same receiver about the same business. */
  waitingIds: number[];
  last?: OutboxPlace;
}

export interface ClaimSettings {
  ignoreBackoff: boolean;
  limit: number;
  leaseMs: number;
  /** performance.now() milliseconds kept between a send's deadline and its lease's end. */
  marginMs: number;
}

/**
 * A claimer for one pass: `claim(after, onlyIds)` leases the next batch to the pass's token and
 * puts what it leased in `pass.held`. The message texts (message.ts, with the catalogues and
 * their ICU formatter) are loaded at the first body to freeze, outside any transaction (a
 * managed Postgres may end one left idle while a module loads), so a pass with nothing to send,
 * as after most syncs, never loads them.
 */
export function batchClaimer(pass: Pass, { marginMs, ...settings }: ClaimSettings) {
  let texts: Texts | undefined;
  return async (after: OutboxPlace, onlyIds?: number[]): Promise<ClaimedBatch> => {
    // Read before the claim's transaction starts, so the deadline is never later than the
    // lease the database writes (from its own now(), at least this late).
    const sendBy = performance.now() + settings.leaseMs - marginMs;
    const options = {
      ...settings,
      now: pass.now(),
      after,
      onlyIds,
      token: pass.token,
      // Receivers paused by their breaker so far in this pass are left unclaimed.
      skipTargets: settings.ignoreBackoff ? [] : pass.gates.pausedTargets(),
    };
    const inTransaction = (careful: boolean) =>
      pass.deps.sql.begin((tx) => claimAndFreeze(tx, pass, options, texts, careful));
    let careful = false;
    for (;;) {
      try {
        const batch = await inTransaction(careful);
        const claimed = batch.claimed.map((c) => ({ ...c, sendBy }));
        for (const c of claimed) pass.held.set(c.row.id, c.row);
        return { ...batch, claimed };
      } catch (thrown) {
        if (thrown instanceof MessagesNotLoaded) {
          // The rolled-back claim changed nothing; it is made again with the texts.
          texts = await import("./message.ts").catch((failed: unknown) => ({ failed }));
          continue;
        }
        // A second failure is the claim's own (the database): the pass ends with it.
        if (careful) throw thrown;
        careful = true;
      }
    }
  };
}

/** Claims a batch and freezes the body of each message claimed for its first attempt. */
async function claimAndFreeze(
  tx: Tx,
  pass: Pass,
  options: Parameters<typeof claimBatch>[1],
  texts: Texts | undefined,
  careful: boolean,
): Promise<Omit<ClaimedBatch, "claimed"> & { claimed: Omit<Claimed, "sendBy">[] }> {
  const rows = await claimBatch(tx, options);
  const lastRow = rows.at(-1);
  const claimed: Omit<Claimed, "sendBy">[] = [];
  const locale = pass.deps.config.locale;
  for (const row of rows) {
    if (row.waitsForOlder) continue;
    let payload = row.payload as Record<string, unknown> | null;
    // Frozen before the first attempt; a body frozen as a webhook's for another channel (before
    // each channel froze its own) is built once more, for the last time.
    if (!payload || !isFrozenFor(row.channel, payload)) {
      if (texts === undefined) throw new MessagesNotLoaded();
      const build = (runner: Tx) => freeze(runner, row, options.now, locale, texts);
      if (!careful) payload = await build(tx);
      else {
        try {
          payload = (await tx.savepoint(build)) as Record<string, unknown>;
        } catch (thrown) {
          const error = `the message's body could not be built: ${describeThrown(thrown)}`;
          await chargeAttempt(tx, pass, row, error, options.now);
          continue;
        }
      }
    }
    claimed.push({ row, payload: payload! });
  }
  return {
    claimed,
    waitingIds: rows.filter((r) => r.waitsForOlder).map((r) => r.id),
    last: lastRow ? { oldestChange: lastRow.oldestChange, id: lastRow.id } : undefined,
  };
}

async function freeze(
  tx: Tx,
  row: DeliveryRow,
  now: Date,
  locale: MessageInput["locale"],
  texts: Texts,
): Promise<Record<string, unknown>> {
  if ("failed" in texts) throw texts.failed;
  const bound = boundDigest(await messageInput(tx, row, now, locale));
  const body = frozenBody(row, bound, texts);
  return (await savePayload(tx, row.id, body)) as Record<string, unknown>;
}

/** What every attempt of a message sends, per channel: the webhook body, the e-mail, the NOTIFY text. */
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
  tx: Tx,
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

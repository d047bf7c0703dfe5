/**
 * A delivery pass as its parts share it: what the pass counts (its report), what it holds (the
 * claimed messages) and what every send needs (its dependencies, gates and mailer).
 */
import type { Sql } from "../db/connect.ts";
import type { Logger } from "../logger.ts";
import type { AlertConfig } from "./delivery-settings.ts";
import type { MailerOnDemand } from "./email.ts";
import type { DeliveryRow } from "./sql/outbox.ts";
import type { TargetGates } from "./target-gate.ts";

export interface DeliveryReport {
  raised: number;
  reopened: number;
  attempted: number;
  sent: number;
  retrying: number;
  dead: number;
  blocked: number;
  /**
   * Left for a later pass: an older message to the same receiver about the same business is
   * still pending, or the receiver is paused after failing several messages in a row.
   */
  deferred: number;
  /**
   * Messages charged a failed attempt for an error of regwatch's own (a send that threw, a body
   * that could not be built, a failure while the pass held them); also counted as attempted.
   */
  unexpected: number;
  /** The pass's first error of its own, secrets scrubbed; absent when it had none. */
  error?: string;
}

export function emptyDeliveryReport(): DeliveryReport {
  return {
    raised: 0,
    reopened: 0,
    attempted: 0,
    sent: 0,
    retrying: 0,
    dead: 0,
    blocked: 0,
    deferred: 0,
    unexpected: 0,
  };
}

/** A claimed message with what its channels send. */
export interface Claimed {
  row: DeliveryRow;
  /** The frozen body: a webhook's JSON, `{email}` or `{notify}`. */
  payload: Record<string, unknown>;
  /** performance.now() instant by which its send must have ended: its lease less a margin. */
  sendBy: number;
}

export interface Pass {
  deps: {
    sql: Sql;
    config: AlertConfig;
    log: Logger;
    random?: () => number;
    signal?: AbortSignal;
    /** Wall-clock instant after which no new batch is claimed. */
    deadline?: number;
  };
  now: () => Date;
  token: string;
  gates: TargetGates;
  mailer: MailerOnDemand | undefined;
  report: DeliveryReport;
  /** Claimed and not recorded yet, by delivery id: what a failing pass charges an attempt. */
  held: Map<number, DeliveryRow>;
}

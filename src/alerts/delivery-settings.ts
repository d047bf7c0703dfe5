/**
 * The deliverer's settings as the configuration gives them: the retry policy of each message and
 * the limits of each receiver.
 */
import type { Config } from "../config.ts";
import type { RetryPolicy } from "./retry-policy.ts";
import { TargetGates } from "./target-gate.ts";

/** Failures in a row, each of a different message, that pause a receiver. */
export const BREAKER_THRESHOLD = 5;

export type AlertConfig = Pick<
  Config,
  | "webhookSecret"
  | "smtpUrl"
  | "mailFrom"
  | "alertRetryBaseMs"
  | "alertMaxAttempts"
  | "alertRetryCapMs"
  | "alertGiveUpHours"
  | "alertTargetConcurrency"
  | "alertAllowPrivateTargets"
  | "requestTimeoutMs"
  | "tz"
> &
  /** The language of the messages' text (REGWATCH_LOCALE); English when absent. */
  Partial<Pick<Config, "locale">>;

export function retryPolicy(config: AlertConfig): RetryPolicy {
  return {
    baseMs: config.alertRetryBaseMs,
    maxAttempts: config.alertMaxAttempts,
    capMs: config.alertRetryCapMs,
    giveUpMs: config.alertGiveUpHours * 3_600_000,
  };
}

/** Receiver limits: the breaker is off when the operator asks for every message now. */
export function targetGates(config: AlertConfig, now: () => Date, breaker = true): TargetGates {
  return new TargetGates({
    concurrency: config.alertTargetConcurrency,
    threshold: BREAKER_THRESHOLD,
    pauseMs: config.alertRetryBaseMs,
    maxPauseMs: config.alertRetryCapMs,
    breaker,
    now,
  });
}

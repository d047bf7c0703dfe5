/**
 * The daemon's daily retention pass: checked every few minutes, run once per day of REGWATCH_TZ
 * (the record of a scheduled pass that day is what says it ran, so a restart does not repeat it
 * and a daemon down at midnight catches up when it starts).
 */
import type { Config } from "../config.ts";
import { registryDay } from "../dates.ts";
import type { Sql } from "../db/connect.ts";
import type { Logger } from "../logger.ts";
import { startTicker } from "../ticker.ts";
import { runRetentionPass } from "./apply.ts";
import { scheduledPassRan } from "./sql/runs.ts";

export interface DailyRetentionDeps {
  sql: Sql;
  config: Config;
  log: Logger;
}

/** Starts the daily check; the returned function stops it after the batch in flight. */
export function startRetentionTicker(deps: DailyRetentionDeps, everyMs: number): () => Promise<void> {
  return startTicker((signal) => passIfDue(deps, signal), everyMs);
}

async function passIfDue(deps: DailyRetentionDeps, signal: AbortSignal): Promise<void> {
  const { sql, config, log } = deps;
  const today = registryDay(config.tz);
  try {
    if (await scheduledPassRan(sql, today, config.tz)) {
      log.debug({ today }, "retention: today's pass already ran");
      return;
    }
    const pass = await runRetentionPass(sql, {
      settings: config.retention,
      today,
      tz: config.tz,
      dryRun: false,
      trigger: "schedule",
      signal,
    });
    log.info(
      { retention: Object.fromEntries(pass.kinds.map((k) => [k.kind, k.count])) },
      "retention policy applied",
    );
  } catch (error) {
    if (signal.aborted) return;
    log.error({ err: error }, "retention pass failed; the next check tries again");
  }
}

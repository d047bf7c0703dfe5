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
  /** Every schema the process serves: one, or a fleet's home and each account's. */
  schemas: readonly { schema: string; sql: Sql }[];
  config: Config;
  log: Logger;
}

/** Starts the daily check; the returned function stops it after the batch in flight. */
export function startRetentionTicker(deps: DailyRetentionDeps, everyMs: number): () => Promise<void> {
  return startTicker(async (signal) => {
    for (const { schema, sql } of deps.schemas) {
      if (signal.aborted) return;
      await passIfDue(sql, schema, deps, signal);
    }
  }, everyMs);
}

async function passIfDue(
  sql: Sql,
  schema: string,
  deps: DailyRetentionDeps,
  signal: AbortSignal,
): Promise<void> {
  const { config, log } = deps;
  const today = registryDay(config.tz);
  try {
    if (await scheduledPassRan(sql, today, config.tz)) {
      log.debug({ today, schema }, "retention: today's pass already ran");
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
      { schema, retention: Object.fromEntries(pass.kinds.map((k) => [k.kind, k.count])) },
      "retention policy applied",
    );
  } catch (error) {
    if (signal.aborted) return;
    log.error({ err: error, schema }, "retention pass failed; the next check tries again");
  }
}

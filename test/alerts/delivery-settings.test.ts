/**
 * The deliverer's settings: defaults (an hour per step, a day to give up, 4 in flight per
 * receiver) and a clear message naming the variable for a value it cannot use.
 */
import { describe, expect, it } from "vitest";
import { retryPolicy } from "../../src/alerts/deliver.ts";
import { loadConfig } from "../../src/config.ts";
import { ConfigError } from "../../src/errors.ts";

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  return [];
}

describe("delivery settings", () => {
  it("defaults to an hour per step, a day to give up and 4 messages in flight per receiver", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      alertRetryCapMs: 3_600_000,
      alertGiveUpHours: 24,
      alertTargetConcurrency: 4,
    });
    expect(retryPolicy(config)).toMatchObject({ capMs: 3_600_000, giveUpMs: 24 * 3_600_000 });
    const set = loadConfig({
      REGWATCH_ALERT_RETRY_CAP_MS: "600000",
      REGWATCH_ALERT_GIVE_UP_HOURS: "6",
      REGWATCH_ALERT_TARGET_CONCURRENCY: "8",
    });
    expect(set).toMatchObject({ alertRetryCapMs: 600_000, alertGiveUpHours: 6, alertTargetConcurrency: 8 });
  });

  it("names the variable and what it must be for a value it cannot use", () => {
    expect(problemsOf({ REGWATCH_ALERT_TARGET_CONCURRENCY: "0" }).join("\n")).toMatch(
      /REGWATCH_ALERT_TARGET_CONCURRENCY: must be at least 1/,
    );
    expect(problemsOf({ REGWATCH_ALERT_RETRY_CAP_MS: "soon" }).join("\n")).toMatch(
      /REGWATCH_ALERT_RETRY_CAP_MS: must be a whole number/,
    );
    expect(problemsOf({ REGWATCH_ALERT_GIVE_UP_HOURS: "0" }).join("\n")).toMatch(
      /REGWATCH_ALERT_GIVE_UP_HOURS: must be at least 1/,
    );
  });
});

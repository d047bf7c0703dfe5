/**
 * The doctor's judgements without a server: clock skew bounds, the schedule against the
 * registry's 07:00, configuration typos, the key rule's own guard, the quota, and how the report
 * prints (escapes, scrubbed secrets, the exit status).
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { judgeFileOrigin } from "../../src/doctor/judge-alerts.ts";
import { judgeClock, judgeQuota } from "../../src/doctor/judge-registry.ts";
import { judgeConfig, judgeSchedule } from "../../src/doctor/judge-setup.ts";
import type { Probe } from "../../src/doctor/probe-http.ts";
import { buildReport, fail, formatJson, formatText, ok, warn } from "../../src/doctor/report.ts";
import { registerSecrets } from "../../src/secrets.ts";

const NOW = Date.parse("2026-11-25T08:00:00Z");

function answered(dateHeader: string | undefined): Probe {
  return {
    kind: "answered",
    answer: {
      status: 200,
      headers: dateHeader === undefined ? {} : { date: dateHeader },
      body: Buffer.from("{}"),
      sentAt: NOW - 200,
      answeredAt: NOW + 200,
    },
  };
}

const serverAt = (offsetMs: number) => new Date(NOW + offsetMs).toUTCString();

describe("doctor judgements", () => {
  it("bounds the clock: within 2 minutes ok, past 2 a warning, past 15 a failure", () => {
    expect(judgeClock(answered(serverAt(90_000)))).toMatchObject({ status: "ok" });
    expect(judgeClock(answered(serverAt(-3 * 60_000)))).toMatchObject({
      status: "warn",
      message: "ours is 3 min ahead of the registry's (more than 2 minutes)",
    });
    expect(judgeClock(answered(serverAt(16 * 60_000)))).toMatchObject({
      status: "fail",
      message: "ours is 16 min behind the registry's (more than 15 minutes)",
    });
    expect(judgeClock(answered(undefined))).toMatchObject({ status: "warn" });
    expect(judgeClock(answered("yesterday-ish"))).toMatchObject({ status: "warn" });
  });

  it("shows the next runs in both zones and warns of a run before the registry's 07:00", () => {
    const utcMorning = ["2026-01-12", "2026-01-13", "2026-01-14"].map((d) => new Date(`${d}T05:30:00Z`));
    const early = judgeSchedule({
      schedule: "30 5 * * *",
      tz: "UTC",
      registryTz: "Europe/Budapest",
      nextRuns: utcMorning,
    });
    expect(early.status).toBe("warn");
    expect(early.message).toBe(
      '"30 5 * * *" in UTC; in the registry\'s zone Europe/Budapest: 06:30, 06:30, 06:30; next runs ' +
        "2026-01-12 05:30, 2026-01-13 05:30, 2026-01-14 05:30 (UTC): every run is before 7:00 in Europe/Budapest, " +
        "when yesterday is not complete yet, so those runs cover up to the day before",
    );
    expect(early.next).toMatch(/REGWATCH_SCHEDULE="15 7 \* \* \*" with REGWATCH_TZ=Europe\/Budapest/);

    const summer = ["2026-07-01", "2026-07-02", "2026-07-03"].map((d) => new Date(`${d}T05:30:00Z`));
    expect(
      judgeSchedule({ schedule: "30 5 * * *", tz: "UTC", registryTz: "Europe/Budapest", nextRuns: summer })
        .status,
    ).toBe("ok");
    expect(
      judgeSchedule({ schedule: "0 0 30 2 *", tz: "UTC", registryTz: "UTC", nextRuns: [] }),
    ).toMatchObject({
      status: "fail",
      message: 'REGWATCH_SCHEDULE "0 0 30 2 *" never fires',
    });
  });

  it("names a misspelt variable with the one meant, and a watch address that sends the key in clear", () => {
    const env = {
      REGWATCH_WATCH_URL: "http://registry.example/v2",
      REGWATCH_API_KEY: "k-123456",
      REGWATCH_SHEDULE: "15 7 * * *",
    };
    const results = judgeConfig(loadConfig(env), env, undefined);
    expect(results).toEqual([
      warn(
        "configuration",
        "REGWATCH_SHEDULE is not a variable regwatch reads (did you mean REGWATCH_SCHEDULE?); it is ignored",
        "rename it to REGWATCH_SCHEDULE",
      ),
      warn(
        "configuration",
        "REGWATCH_WATCH_URL is http:// on another machine: the API key would cross the network unencrypted",
        "use the https:// address",
      ),
    ]);
  });

  it("fails a file origin that was sent the key, whatever the reason", () => {
    const probe = answered(undefined);
    const result = judgeFileOrigin({
      origin: "https://files.example",
      watchOrigin: "https://registry.example",
      probe,
      credentialsSent: true,
      fetchFilesNone: false,
    });
    expect(result.status).toBe("fail");
    expect(result.message).toMatch(/^the key or the client id was sent to https:\/\/files.example/);
  });

  it("warns when less than a tenth of the quota is left", () => {
    expect(judgeQuota(1950, 2000, "2026-12-01")).toMatchObject({
      status: "warn",
      message:
        "1950 of 2000 search requests used this month, 50 left (the doctor spent none): less than a tenth left",
    });
    expect(judgeQuota(undefined, 2000, "2026-12-01").status).toBe("warn");
  });

  it("prints one line per check, escapes control characters, scrubs secrets, and decides the exit status", () => {
    registerSecrets(["s3cret-smtp-password"]);
    const results = [
      ok("database", "reached"),
      fail(
        "e-mail",
        "smtp://mail.example:587 refused: 535 \u001b[31mno\nFAIL  forged s3cret-smtp-password",
        "check it",
      ),
      warn("clock", "ours is 3 min ahead", "synchronise"),
    ];
    const report = buildReport(results, new Date(NOW));
    expect(report.exitCode).toBe(1);
    const text = formatText(report);
    expect(text.split("\n").slice(0, 3)).toEqual([
      "ok    database    reached",
      "FAIL  e-mail      smtp://mail.example:587 refused: 535 \\e[31mno\\nFAIL  forged [redacted] → check it",
      "WARN  clock       ours is 3 min ahead → synchronise",
    ]);
    expect(text).toMatch(/1 ok, 1 warn, 1 fail: something will fail/);
    expect(formatJson(report)).not.toContain("s3cret-smtp-password");

    expect(
      buildReport([warn("clock", "off", "fix"), ok("database", "reached")], new Date(NOW)).exitCode,
    ).toBe(0);
    expect(
      buildReport([fail("configuration", "X: bad", "fix"), fail("database", "down", "fix")], new Date(NOW))
        .exitCode,
    ).toBe(78);
  });
});

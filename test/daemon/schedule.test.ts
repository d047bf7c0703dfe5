import cron from "node-cron";
import { describe, expect, it } from "vitest";
import { cronSchedule, previousScheduledTime, wallTimeInstants } from "../../src/daemon/schedule.ts";

function schedule(expression: string, timeZone: string) {
  const task = cron.createTask(expression, () => {}, { timezone: timeZone });
  return cronSchedule(expression, timeZone, (instant) => task.match(instant));
}
const at = (iso: string) => new Date(iso);
const previous = (expression: string, timeZone: string, now: string) =>
  previousScheduledTime(schedule(expression, timeZone), at(now))?.toISOString();

describe("previousScheduledTime", () => {
  const daily = "15 7 * * *";
  it("is today's slot once it has passed, else yesterday's", () => {
    expect(previous(daily, "Europe/Budapest", "2026-11-22T10:00:00Z")).toBe("2026-11-22T06:15:00.000Z");
    expect(previous(daily, "Europe/Budapest", "2026-11-22T06:15:00Z")).toBe("2026-11-22T06:15:00.000Z");
    expect(previous(daily, "Europe/Budapest", "2026-11-22T06:14:59Z")).toBe("2026-11-21T06:15:00.000Z");
  });

  it("follows the zone's offset across daylight-saving time", () => {
    expect(previous(daily, "Europe/Budapest", "2026-07-01T12:00:00Z")).toBe("2026-07-01T05:15:00.000Z");
    // 02:30 does not exist on 29 March 2026 in Budapest: the day before is the last firing.
    expect(previous("30 2 * * *", "Europe/Budapest", "2026-03-29T12:00:00Z")).toBe(
      "2026-03-28T01:30:00.000Z",
    );
    // 02:30 happens twice on 25 October 2026: between them, the first counts.
    expect(previous("30 2 * * *", "Europe/Budapest", "2026-10-25T01:10:00Z")).toBe(
      "2026-10-25T00:30:00.000Z",
    );
    expect(previous("30 2 * * *", "Europe/Budapest", "2026-10-25T12:00:00Z")).toBe(
      "2026-10-25T01:30:00.000Z",
    );
  });

  it("honours weekdays, days of the month and node-cron's special forms", () => {
    // 22 November 2026 is a Sunday.
    expect(previous("0 7 * * mon", "Europe/Budapest", "2026-11-22T12:00:00Z")).toBe(
      "2026-11-16T06:00:00.000Z",
    );
    expect(previous("0 7 1 * *", "UTC", "2026-11-22T12:00:00Z")).toBe("2026-11-01T07:00:00.000Z");
    expect(previous("0 7 L * *", "UTC", "2026-11-22T12:00:00Z")).toBe("2026-10-31T07:00:00.000Z");
    expect(previous("0 0 29 2 *", "UTC", "2026-11-22T12:00:00Z")).toBe("2024-02-29T00:00:00.000Z");
  });

  it("handles several times a day and seconds", () => {
    expect(previous("0 */6 * * *", "UTC", "2026-11-22T13:59:00Z")).toBe("2026-11-22T12:00:00.000Z");
    expect(previous("*/10 * * * * *", "UTC", "2026-11-22T13:59:07.5Z")).toBe("2026-11-22T13:59:00.000Z");
  });
});

describe("wallTimeInstants", () => {
  it("finds none in a spring gap, two in an autumn overlap", () => {
    expect(wallTimeInstants("2026-03-29", 2, 30, 0, "Europe/Budapest")).toEqual([]);
    expect(wallTimeInstants("2026-10-25", 2, 30, 0, "Europe/Budapest").map((d) => d.toISOString())).toEqual([
      "2026-10-25T00:30:00.000Z",
      "2026-10-25T01:30:00.000Z",
    ]);
  });
});

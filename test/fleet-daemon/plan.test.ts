/** The fleet daemon's pure decisions: schedules per account, slot days, jobs asked for, the outbox's pace. */
import { describe, expect, it } from "vitest";
import {
  accountSchedules,
  DeliverThrottle,
  daysBehind,
  slotDay,
  syncJobFor,
} from "../../src/daemon/fleet-plan.ts";
import { ago } from "../../src/daemon/fleet-report.ts";

const base = { schedule: "0 30 2 * * *", tz: "Europe/Budapest" };

describe("accountSchedules", () => {
  it("takes the account's schedule and zone, else the global ones", () => {
    const got = accountSchedules(
      [
        { name: "a", schema: "regwatch_a" },
        { name: "b", schema: "regwatch_b", schedule: "0 0 5 * * *", timezone: "America/New_York" },
      ],
      base,
    );
    expect(got).toEqual([
      { account: "a", schema: "regwatch_a", schedule: "0 30 2 * * *", timeZone: "Europe/Budapest" },
      { account: "b", schema: "regwatch_b", schedule: "0 0 5 * * *", timeZone: "America/New_York" },
    ]);
  });
});

describe("slotDay", () => {
  it("is the slot's date on the account's wall clock, not in UTC", () => {
    const slot = new Date("2026-03-10T23:30:00Z");
    expect(slotDay(slot, "UTC")).toBe("2026-03-10");
    expect(slotDay(slot, "Europe/Budapest")).toBe("2026-03-11");
    expect(slotDay(slot, "America/New_York")).toBe("2026-03-10");
  });
});

describe("syncJobFor", () => {
  const account = { account: "b", schema: "regwatch_b", schedule: "0 30 0 * * *", timeZone: "Asia/Tokyo" };
  const slot = new Date("2026-05-01T15:30:00Z"); // 00:30 on 2 May in Tokyo

  it("asks for the slot's sync when it is due, keyed by the account's local day", () => {
    for (const reason of ["scheduled", "resume-stopped", "retry"] as const)
      expect(syncJobFor(account, slot, { due: true, reason })).toEqual({
        kind: "sync",
        account: "b",
        day: "2026-05-02",
      });
  });

  it("asks for nothing when the slot is done, waiting or held, or has not come", () => {
    expect(syncJobFor(account, slot, { due: false, reason: "complete" })).toBeUndefined();
    expect(syncJobFor(account, slot, { due: false, reason: "backoff", nextAt: slot })).toBeUndefined();
    expect(syncJobFor(account, slot, { due: false, reason: "exhausted", attempts: 5 })).toBeUndefined();
    expect(syncJobFor(account, slot, { due: false, reason: "killed", kills: 4 })).toBeUndefined();
    expect(syncJobFor(account, undefined, { due: false, reason: "no-slot" })).toBeUndefined();
  });
});

describe("DeliverThrottle", () => {
  it("lets each account's outbox be looked at once per interval", () => {
    const throttle = new DeliverThrottle(60_000);
    const t0 = new Date("2026-01-01T00:00:00Z");
    const at = (ms: number) => new Date(t0.getTime() + ms);
    expect(throttle.take("a", t0)).toBe(true);
    expect(throttle.take("b", t0)).toBe(true);
    expect(throttle.take("a", at(59_999))).toBe(false);
    expect(throttle.take("a", at(60_000))).toBe(true);
    expect(throttle.take("a", at(90_000))).toBe(false);
    expect(throttle.take("b", at(90_000))).toBe(true);
  });
});

describe("daysBehind", () => {
  // 10:00 in Budapest on 10 June: the last complete day is 9 June.
  const now = new Date("2026-06-10T08:00:00Z");
  it("counts the days from the coverage end to the last complete day", () => {
    expect(daysBehind("2026-06-09", now, "Europe/Budapest")).toBe(0);
    expect(daysBehind("2026-06-06", now, "Europe/Budapest")).toBe(3);
    expect(daysBehind("2026-06-12", now, "Europe/Budapest")).toBe(0);
    expect(daysBehind(null, now, "Europe/Budapest")).toBeNull();
  });
});

describe("ago", () => {
  const now = new Date("2026-06-10T08:00:00Z");
  const earlier = (s: number) => new Date(now.getTime() - s * 1000);
  it("says the largest whole unit", () => {
    expect(ago(earlier(5), now)).toBe("5s ago");
    expect(ago(earlier(600), now)).toBe("10m ago");
    expect(ago(earlier(5 * 3600), now)).toBe("5h ago");
    expect(ago(earlier(3 * 86_400), now)).toBe("3d ago");
    expect(ago(new Date(now.getTime() + 5000), now)).toBe("0s ago");
  });
});

import { describe, expect, it } from "vitest";
import { accountDay, accountOfQueue, jobFor, jobKey, parsePayload, queueName } from "../../src/fleet/jobs.ts";
import { heartbeatEveryMs } from "../../src/fleet/leases.ts";

describe("fleet jobs", () => {
  it("names one queue per account and keys a job by account, kind and day or range", () => {
    expect(queueName("alpha")).toBe("regwatch:alpha");
    expect(accountOfQueue("regwatch:alpha")).toBe("alpha");
    expect(accountOfQueue("other:alpha")).toBeUndefined();
    expect(jobKey(jobFor("sync", "alpha", "2026-11-25"))).toBe("alpha:sync:2026-11-25");
    expect(jobKey(jobFor("reconcile", "alpha", "2026-11-25"))).toBe("alpha:reconcile:2026-11-25");
    expect(jobKey(jobFor("deliver", "alpha", "2026-11-25"))).toBe("alpha:deliver");
    expect(jobKey(jobFor("backfill", "alpha", "2026-11-25", { from: "2026-01-01", to: "2026-02-01" }))).toBe(
      "alpha:backfill:2026-01-01..2026-02-01",
    );
    expect(() => jobFor("backfill", "alpha", "2026-11-25")).toThrow(/range/);
  });

  it("takes the day in the account's zone", () => {
    const instant = new Date("2026-11-24T23:30:00Z");
    expect(accountDay(instant, "Europe/Budapest")).toBe("2026-11-25");
    expect(accountDay(instant, "America/New_York")).toBe("2026-11-24");
  });

  it("checks payloads read back from the queue, naming what is wrong", () => {
    expect(parsePayload("sync", { kind: "sync", account: "a", day: "2026-11-25" })).toEqual({
      kind: "sync",
      account: "a",
      day: "2026-11-25",
    });
    expect(parsePayload("deliver", { account: "a" })).toEqual({ kind: "deliver", account: "a" });
    expect(() => parsePayload("sync", null)).toThrow(/payload must be an object/);
    expect(() => parsePayload("sync", { account: "A-b", day: "2026-11-25" })).toThrow(/account must be/);
    expect(() => parsePayload("reconcile", { account: "a", day: "2026-02-30" })).toThrow(
      /day must be a date/,
    );
    expect(() => parsePayload("backfill", { account: "a", from: "2026-03-01", to: "2026-02-01" })).toThrow(
      /to 2026-02-01 is before from 2026-03-01/,
    );
    expect(() => parsePayload("backfill", { account: "a", from: "2026-03-01" })).toThrow(/to must be a date/);
    // A job a person queued keeps that mark; anything else in its place is refused.
    expect(parsePayload("deliver", { account: "a", manual: true })).toEqual({
      kind: "deliver",
      account: "a",
      manual: true,
    });
    expect(() => parsePayload("deliver", { account: "a", manual: "yes" })).toThrow(/manual must be true/);
  });
});

describe("heartbeats", () => {
  it("beat five times per lease, at most every 30 s", () => {
    expect(heartbeatEveryMs(3)).toBe(600);
    expect(heartbeatEveryMs(60)).toBe(12_000);
    expect(heartbeatEveryMs(300)).toBe(30_000);
  });
});

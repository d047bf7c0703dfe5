import { describe, expect, it } from "vitest";
import { keyRates, maxInOneSecond } from "../../bench/fleet-stats.ts";
import type { RequestLogEntry } from "../../src/emulator/index.ts";

function entry(tenant: string | undefined, at: number, status = 200): RequestLogEntry {
  return {
    seq: at,
    at,
    simAt: "2024-03-11T08:00:00.000Z",
    origin: "api",
    method: "GET",
    path: "/v2/lists",
    query: {},
    endpoint: "GET /v2/lists",
    status,
    keyValid: true,
    ...(tenant === undefined ? {} : { tenant }),
  };
}

describe("the fleet bench's rates per key", () => {
  it("counts the busiest second as the emulator's window does: the arrival and the 1,000 ms before it, the first excluded", () => {
    expect(maxInOneSecond([])).toBe(0);
    expect(maxInOneSecond([0, 999, 1000])).toBe(2);
    expect(maxInOneSecond([0, 100, 200, 1150, 1190])).toBe(3);
  });

  it("groups by the world that answered, in the keys' order, with the mean over each key's busy span", () => {
    const log = [
      entry("t10", 0),
      entry("t2", 0),
      entry("t2", 500),
      entry("t2", 2000, 429),
      entry(undefined, 100),
    ];
    expect(keyRates(log)).toEqual([
      { tenant: "t2", requests: 3, refused: 1, meanRps: 1.5, maxRps: 2 },
      { tenant: "t10", requests: 1, refused: 0, meanRps: 1, maxRps: 1 },
    ]);
  });
});

/**
 * Windows and files on one origin share its one budget fairly (issue 16, pipelined files): with
 * both sides waiting, turns alternate; a backlog of 10,000 files holds a window back by at most
 * one file turn. On the simulated clock, counting grants, not time.
 */
import { setMaxListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { FairShare } from "../../src/api/fair-share.ts";
import { RateLimiter } from "../../src/api/rate-limiter.ts";
import { createRegistry } from "../../src/api/registry.ts";
import { loadConfig, requireWatch } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";
import { FakeClock } from "../helpers/fake-clock.ts";

function setup(limit = 30) {
  const clock = new FakeClock();
  const inner = new RateLimiter(limit, clock);
  const fair = new FairShare(inner);
  return { clock, inner, fair, windows: fair.lane("windows"), files: fair.lane("files") };
}

describe("fair share of one origin between windows and files", () => {
  it("alternates grants while both lanes wait, and grants in each lane's order", async () => {
    const { clock, windows, files } = setup();
    const order: string[] = [];
    const all = [
      ...Array.from({ length: 40 }, (_, i) => files.acquire().then(() => order.push(`f${i}`))),
      ...Array.from({ length: 10 }, (_, i) => windows.acquire().then(() => order.push(`w${i}`))),
    ];
    await clock.runAll();
    await Promise.all(all);
    expect(order).toHaveLength(50);
    // While both lanes waited (the first 20 turns), each took every other turn.
    const head = order.slice(0, 20).map((g) => g[0]);
    for (let i = 1; i < head.length; i++) expect(head[i]).not.toBe(head[i - 1]);
    expect(order.filter((g) => g.startsWith("w"))).toEqual(Array.from({ length: 10 }, (_, i) => `w${i}`));
    expect(order.filter((g) => g.startsWith("f"))).toEqual(Array.from({ length: 40 }, (_, i) => `f${i}`));
    // Then the files, alone, take every turn.
    expect(order.slice(20).every((g) => g.startsWith("f"))).toBe(true);
  });

  it("keeps the shared pace: grants never come faster than the limiter allows", async () => {
    const { clock, windows, files } = setup(10);
    const stamps: number[] = [];
    const all = [
      ...Array.from({ length: 30 }, () => files.acquire().then((t) => stamps.push(t))),
      ...Array.from({ length: 30 }, () => windows.acquire().then((t) => stamps.push(t))),
    ];
    await clock.runAll();
    await Promise.all(all);
    stamps.sort((a, b) => a - b);
    for (let i = 10; i < stamps.length; i++)
      expect(stamps[i]! - stamps[i - 10]!).toBeGreaterThanOrEqual(1000);
  });

  it("a backlog of 10,000 files delays a window by at most one file turn", async () => {
    const { clock, fair, windows, files } = setup();
    const stop = new AbortController();
    // Every waiting file listens to it, as every request in flight listens to a run's stop signal
    // (src/api/http.ts raises the limit the same way).
    setMaxListeners(0, stop.signal);
    let fileGrants = 0;
    const backlog = Array.from({ length: 10_000 }, () =>
      files.acquire(stop.signal).then(
        () => {
          fileGrants++;
        },
        () => {},
      ),
    );
    // Let part of the backlog through, then a window asks.
    while (fileGrants < 100) {
      await clock.runOne();
    }
    const asked = fileGrants;
    let grantedAfter = -1;
    const window = windows.acquire().then(() => {
      grantedAfter = fileGrants - asked;
    });
    while (grantedAfter < 0) await clock.runOne();
    await window;
    expect(grantedAfter).toBeLessThanOrEqual(1);
    // Three more windows, one after the other: each again within one file turn.
    for (let k = 0; k < 3; k++) {
      const before = fileGrants;
      let after = -1;
      const next = windows.acquire().then(() => {
        after = fileGrants - before;
      });
      while (after < 0) await clock.runOne();
      await next;
      expect(after).toBeLessThanOrEqual(1);
    }
    expect(fair.stats().files?.waiting).toBeGreaterThan(9_000);
    stop.abort(new Error("stop"));
    await Promise.all(backlog);
    expect(fair.stats().files?.waiting).toBe(0);
  });

  it("a stopped waiter leaves its lane and its turn goes to the next one", async () => {
    const { clock, windows, files } = setup(1);
    const stop = new AbortController();
    const got: string[] = [];
    const first = files.acquire().then(() => got.push("f0"));
    const stopped = files.acquire(stop.signal).then(
      () => got.push("f1"),
      () => got.push("f1 stopped"),
    );
    const w = windows.acquire().then(() => got.push("w0"));
    stop.abort(new Error("stop"));
    await clock.runAll();
    await Promise.all([first, stopped, w]);
    expect(got).toEqual(["f1 stopped", "w0", "f0"]);
  });

  it("the registry gives windows and same-origin files separate lanes of the key's limiter", () => {
    const config = loadConfig({ REGWATCH_WATCH_URL: "http://127.0.0.1:9", REGWATCH_API_KEY: "fair-key" });
    requireWatch(config);
    const registry = createRegistry(config, {
      log: createLogger({ level: "silent" }),
      clock: new FakeClock(),
    });
    expect(Object.keys(registry.fairShare.stats())).toEqual(["windows", "files"]);
  });
});

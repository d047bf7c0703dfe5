/**
 * Bullet 7 (issue 17 #5): one limiter per API key whatever the interface. The watch client of a
 * registry and a search client on the same key draw from one budget; another key has its own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpClient } from "../../src/api/http.ts";
import { gatedLimiter, limiterForKey } from "../../src/api/rate-limiter.ts";
import { createRegistry } from "../../src/api/registry.ts";
import { loadConfig, requireWatch } from "../../src/config.ts";
import { createLogger } from "../../src/logger.ts";
import { driveUntilSettled } from "../helpers/drive-clock.ts";
import { FakeClock } from "../helpers/fake-clock.ts";
import { type HostileServer, json, startHostileServer } from "../helpers/hostile-server.ts";

let watchSide: HostileServer;
let searchSide: HostileServer;
beforeAll(async () => {
  [watchSide, searchSide] = await Promise.all([startHostileServer(), startHostileServer()]);
  watchSide.answer = (_req, res) => json(res, 200, { watch_lists: [] });
  searchSide.answer = (_req, res) => json(res, 200, {});
});
afterAll(() => Promise.all([watchSide.close(), searchSide.close()]));

describe("one rate limiter per key", () => {
  it("paces watch and search requests on a shared key within one budget", async () => {
    const clock = new FakeClock();
    const config = loadConfig({
      REGWATCH_WATCH_URL: watchSide.origin,
      REGWATCH_API_KEY: "shared-key-xyz",
      REGWATCH_RATE_LIMIT: "2",
    });
    requireWatch(config);
    const registry = createRegistry(config, { log: createLogger({ level: "silent" }), clock });
    const shared = limiterForKey(config.searchApiKey!, config.rateLimit, clock);
    expect(registry.limiters.get(registry.watchOrigin)).toBe(shared);
    // What the search client does: claim its quota, then pace on the key's limiter.
    let claimed = 0;
    const grants: number[] = [];
    const search = new HttpClient({
      api: "search",
      limiterFor: () =>
        gatedLimiter(shared, () => {
          claimed++;
        }),
      timeoutMs: 5_000,
      maxAttempts: 1,
      clock,
    });
    const stamp = <T>(p: Promise<T>) => p.then(() => grants.push(clock.now()));
    const all = [
      ...Array.from({ length: 3 }, () => stamp(registry.watch.lists())),
      ...Array.from({ length: 3 }, () =>
        stamp(
          search.request({ method: "GET", url: new URL("/v1/x", searchSide.origin), endpoint: "GET /v1/x" }),
        ),
      ),
    ];
    const { error } = await driveUntilSettled(clock, Promise.all(all));
    expect(error).toBeUndefined();
    expect(claimed).toBe(3);
    // Six requests at 2 per second on one key: the last cannot start before 2 s (plus margins).
    expect(Math.max(...grants)).toBeGreaterThanOrEqual(2_000);
    await Promise.all([registry.close(), search.close()]);
  });

  it("keeps different keys (and different clocks) apart", () => {
    const clock = new FakeClock();
    expect(limiterForKey("key-a-123", 30, clock)).toBe(limiterForKey("key-a-123", 30, clock));
    expect(limiterForKey("key-a-123", 30, clock)).not.toBe(limiterForKey("key-b-123", 30, clock));
    expect(limiterForKey("key-a-123", 30, clock)).not.toBe(limiterForKey("key-a-123", 30, new FakeClock()));
  });
});

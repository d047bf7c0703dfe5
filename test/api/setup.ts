import { HttpClient, type HttpClientOptions } from "../../src/api/http.ts";
import { type Limiter, RateLimiter } from "../../src/api/rate-limiter.ts";
import { FakeClock } from "../helpers/fake-clock.ts";

export const KEY = "hostile-test-key-0123456789";

/** An HttpClient on a simulated clock, carrying KEY to `keyOrigin`, no jitter. */
export function testClient(
  keyOrigin: string,
  options: Partial<HttpClientOptions> & { limiter?: Limiter } = {},
): { http: HttpClient; clock: FakeClock; limiter: Limiter } {
  const clock = (options.clock as FakeClock | undefined) ?? new FakeClock();
  const limiter = options.limiter ?? new RateLimiter(30, clock);
  const http = new HttpClient({
    api: "watch",
    limiterFor: () => limiter,
    credentials: { origin: keyOrigin, headers: { "x-api-key": KEY } },
    timeoutMs: 5_000,
    maxAttempts: 3,
    random: () => 1,
    ...options,
    clock,
  });
  return { http, clock, limiter };
}

/** Real milliseconds `promise` took to settle, and its error (it is expected to fail). */
export async function timeToFail(
  promise: Promise<unknown>,
  /** Run once the clock has started (e.g. the stop). */
  trigger?: () => void,
): Promise<{ ms: number; error: unknown }> {
  const started = performance.now();
  trigger?.();
  try {
    await promise;
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
  throw new Error("expected the request to fail");
}

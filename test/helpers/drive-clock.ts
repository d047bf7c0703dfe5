import type { FakeClock } from "./fake-clock.ts";

/**
 * Runs the simulated clock while real I/O (a request over a socket) is in flight: advances it
 * whenever something sleeps on it, until `promise` settles. Returns the settled outcome.
 */
export async function driveUntilSettled<T>(
  clock: FakeClock,
  promise: Promise<T>,
): Promise<{ value?: T; error?: unknown }> {
  let done = false;
  const outcome = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  void outcome.finally(() => {
    done = true;
  });
  while (!done) {
    await clock.runAll();
    // Give sockets a turn: the I/O in flight decides when the next sleeper appears.
    if (!done) await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return outcome;
}

/**
 * Waiting on something a test can observe (a row, a request seen, a log line) instead of
 * sleeping: `waitUntil` checks again after each short turn until the check holds. It has no
 * deadline of its own; the test's timeout bounds it, so no outcome depends on how fast the
 * machine is.
 */
import type { ChildProcess } from "node:child_process";

export interface WaitOptions {
  /** What is awaited, for the error when the process it depends on exits first. */
  what: string;
  /** A process whose exit means the awaited thing will never come. */
  process?: ChildProcess;
  /** Pause between checks (a database query each time wants a few milliseconds). */
  everyMs?: number;
}

export async function waitUntil<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  options: WaitOptions,
): Promise<T> {
  for (;;) {
    const value = await check();
    if (value) return value;
    const child = options.process;
    if (child && child.exitCode !== null) {
      // One last look: the awaited thing may have happened just before the exit.
      const last = await check();
      if (last) return last;
      throw new Error(`${options.what}: the process exited (${child.exitCode}) first`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 20));
  }
}

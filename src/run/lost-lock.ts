/**
 * Ending a run when its lock is lost (the lock's session closed, the database stopped or failed
 * over). The run's own code notices the loss at its next check and ends the way it always does;
 * work that cannot notice (a driver call whose connection vanished and that never settles) is
 * left behind after a short grace, so the command still ends with one message.
 */
import type { RunLock } from "./lock.ts";

/** How long a run whose lock is lost may take to end on its own before it is left behind. */
export const LOST_LOCK_GRACE_MS = 3000;

/** `work`, or the lock's loss reason once the lock is lost and `graceMs` have passed. */
export function untilLockLost<T>(
  work: Promise<T>,
  lock: Pick<RunLock, "signal">,
  graceMs = LOST_LOCK_GRACE_MS,
): Promise<T> {
  const { signal } = lock;
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const onLost = () => {
      timer = setTimeout(() => {
        work.catch(() => {});
        reject(signal.reason);
      }, graceMs);
    };
    if (signal.aborted) onLost();
    else signal.addEventListener("abort", onLost, { once: true });
    const settle = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onLost);
    };
    work.then(
      (value) => {
        settle();
        resolve(value);
      },
      (error: unknown) => {
        settle();
        reject(error);
      },
    );
  });
}

/**
 * The pool the window phase runs its windows in: the configured number at once, more while the
 * rate limit's turns would otherwise pass unused.
 */

/**
 * Whether one more window may start: always below the configured number; above it only while
 * nobody waits at the limiter (its budget would go unused), and never past the cap.
 */
export function mayStart(running: number, floor: number, cap: number, waitingAtLimiter: number): boolean {
  if (running < floor) return true;
  return running < cap && waitingAtLimiter === 0;
}

/**
 * Runs `fn` over `items`: `floor` at once, more while `mayStartNow(running)` allows, checked
 * whenever one ends or releases its place. Beyond the floor one item starts per check, since the limiter sees a new window
 * only once it asks for its request.
 */
export async function runPool<T>(
  items: readonly T[],
  fn: (item: T, release: () => void) => Promise<void>,
  floor: number,
  mayStartNow: (running: number) => boolean,
): Promise<void> {
  let next = 0;
  let running = 0;
  let settled = 0;
  let failure: unknown;
  await new Promise<void>((resolve) => {
    const pump = () => {
      let extra = false;
      while (next < items.length && (running < floor || (!extra && mayStartNow(running)))) {
        if (running >= floor) extra = true;
        const item = items[next++]!;
        running++;
        let released = false;
        // An item stops counting as running once it says so (a window whose requests are all
        // answered, its writes still pending), or when it ends.
        const release = () => {
          if (released) return;
          released = true;
          running--;
          pump();
        };
        fn(item, release)
          .catch((error: unknown) => {
            failure ??= error;
          })
          .finally(() => {
            release();
            settled++;
            if (settled === items.length) resolve();
          });
      }
    };
    if (items.length === 0) resolve();
    else pump();
  });
  if (failure !== undefined) throw failure;
}

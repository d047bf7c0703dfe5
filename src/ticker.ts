/**
 * Work repeated every `everyMs` in a long-lived process, never two passes at once: the first pass
 * at once, then one per interval. The stop function aborts the signal given to the work and waits
 * for the pass in flight. The daemon's alert deliverer and its daily retention check use it.
 */
export function startTicker(
  work: (signal: AbortSignal) => Promise<unknown>,
  everyMs: number,
): () => Promise<void> {
  const stopping = new AbortController();
  let running: Promise<unknown> | undefined;
  const tick = () => {
    if (running || stopping.signal.aborted) return;
    running = work(stopping.signal).finally(() => {
      running = undefined;
    });
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  tick();
  return async () => {
    clearInterval(timer);
    stopping.abort();
    await running;
  };
}

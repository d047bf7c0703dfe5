/**
 * Parses fetched change files while the pass still fetches others, instead of all of them after
 * the last one: the parse sends no request, so done at the end it adds its whole time to the
 * pass, while behind the fetches it uses time spent waiting for the rate limit's turns. One
 * parse runs at a time, started once `every` more files have been fetched since the last one
 * started; what it has not reached is left to the pass's own parse at the end. Parsing beside
 * the windows is safe: a file whose changes change while it is parsed keeps no status, so the
 * next parse reads it again.
 */
export interface ParseBehind {
  /** One more file fetched. */
  fetched(): void;
  /** Waits for the parse running now, if any; throws what a parse threw. */
  finish(): Promise<void>;
}

export function parseBehind(parse: () => Promise<unknown>, every: number): ParseBehind {
  let since = 0;
  let running: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;
  const start = () => {
    since = 0;
    running = parse()
      .then(
        () => undefined,
        (error: unknown) => {
          failure ??= { error };
        },
      )
      .finally(() => {
        running = undefined;
        if (since >= every && !failure) start();
      });
  };
  return {
    fetched() {
      since++;
      if (!running && !failure && since >= every) start();
    },
    async finish() {
      while (running) await running;
      if (failure) throw failure.error;
    },
  };
}

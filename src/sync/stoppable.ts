/**
 * Lets a stop end the wait for work that cannot itself be cancelled (a request in flight): the
 * caller moves on at once, and whatever was in flight is dropped with the process.
 */
export class StoppedError extends Error {
  constructor() {
    super("stopped on request");
    this.name = "StoppedError";
  }
}

export function stoppable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(new StoppedError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      work.catch(() => {});
      reject(new StoppedError());
    };
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

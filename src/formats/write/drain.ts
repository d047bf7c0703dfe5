/**
 * Waiting for a destination to take more, without waiting forever: a stream destroyed before it
 * drains (a download whose client went away) never emits 'drain', so a writer that waited for
 * it alone would hold what it reads from (a database cursor, its connection) for good.
 */
import type { Writable } from "node:stream";

/** The destination was closed before everything was written (the reader went away). */
export class DestinationClosedError extends Error {
  readonly code = "DESTINATION_CLOSED";
  constructor() {
    super("the destination was closed before the export was written (its reader went away)");
    this.name = "DestinationClosedError";
  }
}

/** Throws DestinationClosedError when `out` can no longer be written to. */
export function assertOpen(out: Writable): void {
  if (out.destroyed || out.writableEnded) throw new DestinationClosedError();
}

/**
 * Resolves when `out` emits 'drain'; rejects with DestinationClosedError when it closes or fails
 * first (or already has).
 */
export function drainOrClose(out: Writable): Promise<void> {
  assertOpen(out);
  return new Promise((resolve, reject) => {
    const done = (closed: boolean) => {
      out.off("drain", onDrain);
      out.off("close", onClose);
      out.off("error", onClose);
      if (closed) reject(new DestinationClosedError());
      else resolve();
    };
    const onDrain = () => done(false);
    const onClose = () => done(true);
    out.once("drain", onDrain);
    out.once("close", onClose);
    out.once("error", onClose);
  });
}

/**
 * A promise that rejects with DestinationClosedError once `out` closes or fails before it has
 * finished (never settles otherwise), to race the steps of a writer that cannot see `out` itself.
 */
export function closedBeforeFinish(out: Writable): Promise<never> {
  const closed = new Promise<never>((_, reject) => {
    if (out.destroyed && !out.writableFinished) {
      reject(new DestinationClosedError());
      return;
    }
    const onClose = () => {
      if (!out.writableFinished) reject(new DestinationClosedError());
    };
    out.once("close", onClose);
    out.once("error", onClose);
  });
  closed.catch(() => {});
  return closed;
}

/**
 * How many payment checks one console runs at once. A check's memory is bounded (its chunks by
 * their text), but each check running beside it adds its own, so a console with many uploads at
 * once would grow with them. A check beyond the limit is answered 503 with Retry-After at once,
 * before its upload is read, rather than queued: a queued upload holds its connection and its
 * unread body against the request timeout, and nothing of it has reached the disk yet.
 */
import type { FastifyReply, FastifyRequest } from "fastify";

/** Checks run at once by one console: two measured under 512 MB with the widest 100 MB batches. */
export const CHECKS_AT_ONCE = 2;
/** What a refused check is told to wait: about as long as a 100 MB batch takes to check. */
export const CHECK_RETRY_AFTER_S = 10;

export class CheckSlots {
  private running = 0;

  constructor(readonly limit: number) {}

  /** Takes a slot: its release (harmless twice), or null when every slot is taken. */
  take(): (() => void) | null {
    if (this.running >= this.limit) return null;
    this.running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
    };
  }

  get inUse(): number {
    return this.running;
  }
}

type Handler<R extends FastifyRequest> = (request: R, reply: FastifyReply) => Promise<unknown>;

/**
 * `handler` run in a slot of `slots`, released when it ends however it ends (an answer, an error,
 * an upload cut off); without a free slot, `busy` answers (a 503 with Retry-After).
 */
export function inCheckSlot<R extends FastifyRequest>(
  slots: CheckSlots,
  busy: (request: R, reply: FastifyReply) => Promise<unknown>,
  handler: Handler<R>,
): Handler<R> {
  return async (request, reply) => {
    const release = slots.take();
    if (release === null) {
      reply.header("retry-after", String(CHECK_RETRY_AFTER_S));
      return busy(request, reply);
    }
    try {
      return await handler(request, reply);
    } finally {
      release();
    }
  };
}

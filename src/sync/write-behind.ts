/**
 * Writes behind the requests. An answered window is written while the next request goes out,
 * instead of the request waiting for the commit: on a busy machine or database a commit can take
 * longer than the spacing between two requests, and the rate limit's turns would pass unused.
 * At most `limit` writes are pending at once; whoever has another to hand waits for room, so the
 * answers held in memory stay bounded (the windows asking, plus `limit` waiting to be written).
 */
export class WriteBehind {
  private pending = 0;
  private readonly room: (() => void)[] = [];

  constructor(private readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError("write-behind limit must be a positive integer");
  }

  /** Writes pending right now (queued behind an earlier one of the same chain or running). */
  get size(): number {
    return this.pending;
  }

  /**
   * Waits for room, then queues `write` behind `after` (the same window's earlier write: one
   * window's answers are written in the order they came) and returns the new end of the chain
   * without waiting for it. A failed write fails the rest of its chain, which is then not written.
   */
  async add(after: Promise<void>, write: () => Promise<void>): Promise<{ chain: Promise<void> }> {
    while (this.pending >= this.limit) await new Promise<void>((resolve) => this.room.push(resolve));
    this.pending++;
    const chain = after.then(write);
    chain
      .finally(() => {
        this.pending--;
        this.room.shift()?.();
      })
      .catch(() => {});
    return { chain };
  }
}

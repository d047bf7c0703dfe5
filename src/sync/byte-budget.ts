/**
 * A bound on bytes held at once: a holder waits until what it asks fits. A request larger than
 * the whole budget is let through alone, so one big file still passes, just never beside others.
 */
export class ByteBudget {
  private used = 0;
  private readonly waiting: { bytes: number; wake: () => void }[] = [];

  constructor(readonly limit: number) {}

  async acquire(bytes: number): Promise<() => void> {
    const take = Math.min(bytes, this.limit);
    if (this.waiting.length > 0 || this.used + take > this.limit) {
      await new Promise<void>((wake) => this.waiting.push({ bytes: take, wake }));
    } else {
      this.used += take;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= take;
      this.drain();
    };
  }

  private drain(): void {
    while (this.waiting.length > 0 && this.used + this.waiting[0]!.bytes <= this.limit) {
      const next = this.waiting.shift()!;
      this.used += next.bytes;
      next.wake();
    }
  }
}

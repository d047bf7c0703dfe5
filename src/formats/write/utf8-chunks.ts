/**
 * Text gathered as UTF-8 bytes in buffers of a fixed size, each handed on when full. A sheet's
 * rows are encoded as they come, so no long string of XML outlives its row (a string that did
 * would be copied by every garbage collection it survived), and the compressor gets chunks
 * large enough to be worth a trip to the thread pool. A buffer comes back through the `release`
 * given with it once its bytes are used, and is filled again: the memory in flight stays what the
 * receiver holds, never what the garbage collector has yet to free.
 */
export type EmitChunk = (bytes: Buffer, final: boolean, release: () => void) => void;

/** Buffers kept for reuse at most (more are left to the garbage collector). */
const SPARE = 24;

export class Utf8Chunks {
  private buffer: Buffer;
  private used = 0;
  private readonly spare: Buffer[] = [];

  /** `emit` receives each full buffer, and the last (perhaps empty) with `final` set. */
  constructor(
    private readonly emit: EmitChunk,
    private readonly size = 64 * 1024,
  ) {
    this.buffer = Buffer.allocUnsafeSlow(size);
  }

  write(text: string): void {
    // A UTF-16 code unit is at most three bytes of UTF-8.
    if (this.used + text.length * 3 > this.size) {
      this.flush(false);
      if (text.length * 3 > this.size) {
        this.emit(Buffer.from(text, "utf8"), false, () => {});
        return;
      }
    }
    this.used += this.buffer.write(text, this.used, "utf8");
  }

  /** Hands on what is gathered as the last chunk. */
  end(): void {
    this.flush(true);
  }

  private flush(final: boolean): void {
    if (this.used === 0 && !final) return;
    const whole = this.buffer;
    const full = whole.subarray(0, this.used);
    this.buffer = final ? Buffer.alloc(0) : (this.spare.pop() ?? Buffer.allocUnsafeSlow(this.size));
    this.used = 0;
    this.emit(full, final, () => {
      if (this.spare.length < SPARE) this.spare.push(whole);
    });
  }
}

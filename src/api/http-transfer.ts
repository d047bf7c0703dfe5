/**
 * The body of one exchange as it arrives: capped, each chunk restarting the idle timer, a fault of
 * the transfer told apart from a fault of whoever reads it.
 */
import { type BodyCap, type BodyStream, discard, tooLarge } from "./body.ts";

export interface TransferState {
  ended: boolean;
  /** What broke the transfer itself (network, timeout, cap), as opposed to its consumer. */
  failure?: unknown;
}

/** A consumer of a streamed body failed on its own account: not a transfer fault, not retried. */
export class ConsumerFailure extends Error {
  constructor(
    readonly status: number,
    override readonly cause: unknown,
  ) {
    super("the consumer of a response body failed");
  }
}

/**
 * The body as it arrives, stopping with TOO_LARGE as soon as it passes the cap; each chunk
 * restarts the idle timer. A fault of the transfer is recorded so that it is told apart from
 * a fault of whoever reads the chunks.
 */
export async function* cappedBody(
  body: BodyStream,
  cap: BodyCap,
  context: { endpoint: string; status: number; attempts: number },
  onChunk: () => void,
  onEnd: () => void,
  state: TransferState,
): AsyncGenerator<Buffer> {
  let size = 0;
  const chunks = body[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await chunks.next();
    } catch (error) {
      state.failure = error;
      throw error;
    }
    if (next.done) break;
    onChunk();
    const chunk = next.value;
    size += chunk.length;
    if (size > cap.bytes) {
      discard(body);
      state.failure = tooLarge(context, cap, `passed ${cap.bytes} bytes while reading and`);
      throw state.failure;
    }
    yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
  }
  onEnd();
}

export async function collect(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
  }
  return Buffer.concat(chunks, size);
}

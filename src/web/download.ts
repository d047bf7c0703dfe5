/**
 * A download written as a stream: `write` fills the stream (reading a cursor, waiting for the
 * client to take each chunk), and the stream goes to Fastify as the answer's body. When the
 * client goes away Fastify destroys the stream; the writer's next wait then fails with
 * DestinationClosedError, its cursor loop ends and postgres.js closes the cursor, so the
 * connection is back in the pool at once instead of waiting for a 'drain' that never comes.
 */
import { PassThrough, type Writable } from "node:stream";
import { DestinationClosedError } from "../formats/write/drain.ts";
import type { Logger } from "../logger.ts";

/**
 * The body of a download. `endsItself`: the writer ends the stream (the workbook's does);
 * otherwise it is ended here once `write` resolves.
 */
export function downloadBody(
  log: Logger,
  what: string,
  write: (out: Writable) => Promise<unknown>,
  endsItself: boolean,
): PassThrough {
  const out = new PassThrough();
  write(out).then(
    () => {
      if (!endsItself && !out.destroyed) out.end();
    },
    (error: unknown) => {
      if (error instanceof DestinationClosedError || out.destroyed) {
        log.debug({ what }, "download stopped: the client went away");
        out.destroy();
        return;
      }
      // The answer has started: all that can be done is to cut it short, which the client sees.
      log.error({ err: error }, `${what} failed`);
      out.destroy(error instanceof Error ? error : new Error(String(error)));
    },
  );
  return out;
}

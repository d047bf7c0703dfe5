/**
 * Where a command's log lines go: straight to stderr, or, while a progress bar is drawn on the
 * terminal, to the bar, which prints them above itself. Written over the bar, a JSON line would
 * leave the bar's remains in the middle of it and the bar redrawn over the next line.
 */
import type { LineStream } from "../logger.ts";

export class LogRouter implements LineStream {
  private above: ((line: string) => void) | undefined;

  constructor(private readonly out: LineStream) {}

  write(line: string): void {
    if (this.above) this.above(line.endsWith("\n") ? line.slice(0, -1) : line);
    else this.out.write(line.endsWith("\n") ? line : `${line}\n`);
  }

  /**
   * Sends lines (without their newline) to `above` until the returned function is called;
   * a later route replaces an earlier one.
   */
  route(above: (line: string) => void): () => void {
    this.above = above;
    return () => {
      if (this.above === above) this.above = undefined;
    };
  }
}

/**
 * The one router of a command process: the logger writes to it, the progress bar takes it over.
 * Node makes process.stderr's stream when it is first read (a few milliseconds of loading), which
 * a command that logs nothing never pays.
 */
export const commandLog = new LogRouter({ write: (line) => process.stderr.write(line) });

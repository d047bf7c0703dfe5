/**
 * Asking a person for a password on their terminal: echo off (the terminal in raw mode, nothing
 * printed for what is typed), backspace honoured, Ctrl-C or Ctrl-D cancels. Typing past the
 * longest allowed password is remembered as "too long" without keeping the rest.
 */
import { UsageError } from "../errors.ts";

const ENTER = new Set(["\r", "\n"]);
const ERASE = new Set(["\x7f", "\b"]);
const CANCEL = new Set(["\x03", "\x04"]);

export type HiddenLine = { ok: true; line: string } | { ok: false; tooLong: true };

/**
 * Reads hidden lines from a terminal one prompt at a time. What the terminal delivers after one
 * line's Enter (a paste of two lines) is kept for the next prompt.
 */
export class TerminalPrompt {
  private pending = "";

  constructor(
    private readonly input: NodeJS.ReadStream = process.stdin,
    private readonly output: NodeJS.WriteStream = process.stderr,
  ) {}

  /** One line typed after `question`, nothing of it echoed; at most `maxChars` kept. */
  async hidden(question: string, maxChars: number): Promise<HiddenLine> {
    // Echo off before the question shows: what is typed once it is seen is never echoed.
    const wasRaw = this.input.isRaw;
    this.input.setRawMode(true);
    this.output.write(question);
    this.input.resume();
    try {
      const line = await this.collect(maxChars);
      return line;
    } finally {
      this.input.setRawMode(wasRaw);
      this.input.pause();
      this.output.write("\n");
    }
  }

  private collect(maxChars: number): Promise<HiddenLine> {
    const chars: string[] = [];
    let tooLong = false;
    return new Promise((resolve, reject) => {
      const take = (text: string): boolean => {
        for (let i = 0; i < text.length; i++) {
          const c = text[i]!;
          if (ENTER.has(c)) {
            // A CRLF's LF belongs to this line, not to the next prompt.
            const rest = text.slice(c === "\r" && text[i + 1] === "\n" ? i + 2 : i + 1);
            this.pending = rest;
            resolve(tooLong ? { ok: false, tooLong: true } : { ok: true, line: chars.join("") });
            return true;
          }
          if (CANCEL.has(c)) {
            reject(new UsageError("cancelled: no password was set"));
            return true;
          }
          if (ERASE.has(c)) chars.pop();
          else if (c >= " ") {
            if (chars.length < maxChars) chars.push(c);
            else tooLong = true;
          }
        }
        return false;
      };
      const fromBefore = this.pending;
      this.pending = "";
      if (take(fromBefore)) return;
      const onData = (chunk: Buffer | string) => {
        if (take(typeof chunk === "string" ? chunk : chunk.toString("utf8"))) done();
      };
      const onEnd = () => {
        done();
        reject(new UsageError("the terminal closed before a password was typed"));
      };
      const done = () => {
        this.input.off("data", onData);
        this.input.off("end", onEnd);
      };
      this.input.on("data", onData);
      this.input.on("end", onEnd);
    });
  }
}

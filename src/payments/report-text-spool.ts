/**
 * The text output's temporary files, per verdict and part (table rows, detail lines), written as
 * bytes: each part gathers its UTF-8 in a buffer of its own and goes to its file once the buffer
 * is full. Rows are encoded line by line into the buffer, so no chunk's text and no string of a
 * whole part is built first (they made about a fifth of what a 200,000-row check
 * allocated, much of it strings large enough to go straight to the old generation).
 */
import { once } from "node:events";
import { createWriteStream, mkdtempSync, type WriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Verdict } from "./verdicts.ts";

export type SpoolPart = "table" | "details";

/** Bytes gathered per file before they are written. */
const WRITE_AT = 64 * 1024;
const LF = 0x0a;

interface PartFile {
  stream: WriteStream;
  buffer: Buffer;
  used: number;
}

export class VerdictSpools {
  private dir: string | null = null;
  /** The files by part and verdict: looked up for every row without a key string made each time. */
  private readonly byPart: Record<SpoolPart, Map<Verdict, PartFile>> = {
    table: new Map(),
    details: new Map(),
  };
  /** A file's write error (disk full), said at the next write or at the end, never lost. */
  private failed: Error | null = null;

  path(verdict: Verdict, part: SpoolPart): string {
    return path.join(this.dir!, `${verdict}.${part}`);
  }

  has(verdict: Verdict, part: SpoolPart): boolean {
    return this.byPart[part].has(verdict);
  }

  private *allFiles(): Iterable<PartFile> {
    yield* this.byPart.table.values();
    yield* this.byPart.details.values();
  }

  private file(verdict: Verdict, part: SpoolPart): PartFile {
    let file = this.byPart[part].get(verdict);
    if (!file) {
      this.dir ??= mkdtempSync(path.join(tmpdir(), "regwatch-payments-"));
      const stream = createWriteStream(this.path(verdict, part));
      // Errors are kept rather than thrown from an event: an aborted check destroys its files
      // while a write may still wait for the file to open.
      stream.on("error", (error) => {
        this.failed ??= error;
      });
      file = { stream, buffer: Buffer.allocUnsafe(2 * WRITE_AT), used: 0 };
      this.byPart[part].set(verdict, file);
    }
    if (this.failed) throw this.failed;
    return file;
  }

  /** Room for `bytes` more in `file`'s buffer. */
  private static reserve(file: PartFile, bytes: number): void {
    if (file.used + bytes <= file.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * file.buffer.length, file.used + bytes));
    file.buffer.copy(grown, 0, 0, file.used);
    file.buffer = grown;
  }

  /** Appends `cells` as one line, tab-separated (no cell holds a tab or a line break). */
  cells(verdict: Verdict, cells: readonly string[]): void {
    const file = this.file(verdict, "table");
    let units = 0;
    for (const cell of cells) units += cell.length;
    VerdictSpools.reserve(file, 3 * units + cells.length);
    // One encoding call for the line: a call per cell cost more than the joined string's garbage.
    let at = file.used;
    at += file.buffer.write(cells.join("\t"), at, "utf8");
    file.buffer[at++] = LF;
    file.used = at;
  }

  /** Appends `text` as it is. */
  text(verdict: Verdict, part: SpoolPart, text: string): void {
    const file = this.file(verdict, part);
    VerdictSpools.reserve(file, 3 * text.length);
    file.used += file.buffer.write(text, file.used, "utf8");
  }

  /** Writes out the files whose buffers are full (after each chunk). */
  async flush(): Promise<void> {
    for (const file of this.allFiles()) if (file.used >= WRITE_AT) await this.send(file);
  }

  private async send(file: PartFile): Promise<void> {
    if (file.used === 0) return;
    const full = file.buffer.subarray(0, file.used);
    file.buffer = Buffer.allocUnsafe(Math.max(2 * WRITE_AT, file.buffer.length));
    file.used = 0;
    if (!file.stream.write(full)) await once(file.stream, "drain");
    if (this.failed) throw this.failed;
  }

  /** Writes what is gathered and closes every file; a failed write is thrown here. */
  async close(): Promise<void> {
    for (const file of this.allFiles()) {
      await this.send(file);
      file.stream.end();
      await once(file.stream, "close");
    }
    if (this.failed) throw this.failed;
  }

  /** Closes and removes every file. */
  async remove(): Promise<void> {
    for (const file of this.allFiles()) file.stream.destroy();
    this.byPart.table.clear();
    this.byPart.details.clear();
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
    this.dir = null;
  }
}

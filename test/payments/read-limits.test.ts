/**
 * A payment file's reader refuses a record longer than 64 Ki characters as soon as that much of
 * it has passed, naming its line, and a NUL character naming its line; what it reads of a file
 * with one endless line is bounded (bytes counted through a pipe, never a stopwatch).
 */
import { execFileSync } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FileProblem } from "../../src/formats/batch-row.ts";
import { openBatch } from "../../src/formats/read/batch-reader.ts";
import { MAX_RECORD_CHARS, RecordTooLongError } from "../../src/formats/read/limits.ts";
import { RecordSplitter } from "../../src/formats/read/record-splitter.ts";
import { recordsOf } from "../../src/formats/read/records.ts";

const ACCOUNT = "11773016-11111018-00000000";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "regwatch-limits-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let counter = 0;
async function problemsOf(content: string | Buffer, encoding?: string): Promise<FileProblem[]> {
  const file = join(dir, `batch-${++counter}.csv`);
  await writeFile(file, content);
  const opened = await openBatch(file, { currency: "HUF", ...(encoding ? { encoding } : {}) });
  if (opened.ok) throw new Error("expected the file to be refused");
  return opened.problems;
}

describe("a record over the bound", () => {
  it("refuses a file with a 100 KiB cell, naming its line", async () => {
    const big = "x".repeat(100 * 1024);
    const problems = await problemsOf(
      `bank_account;amount;reference\n${ACCOUNT};100;R1\n${ACCOUNT};200;${big}\n${ACCOUNT};300;R3\n`,
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]?.line).toBe(3);
    expect(problems[0]?.message).toMatch(/line 3 is longer than 65536 characters/);
  });

  it("refuses a 100 KiB quoted cell in an 8-bit file, naming the line it starts on", async () => {
    const big = "é".repeat(100 * 1024);
    const text = `bank_account;amount;reference\n${ACCOUNT};100;R1\n${ACCOUNT};200;"a\n${big}"\n`;
    const problems = await problemsOf(iconv.encode(text, "windows-1250"), "windows-1250");
    expect(problems.map((p) => p.line)).toEqual([3]);
    expect(problems[0]?.message).toContain("longer than 65536 characters");
  });

  it("accepts a record of exactly the bound", async () => {
    const file = join(dir, "at-bound.csv");
    const head = `${ACCOUNT};1;`;
    await writeFile(
      file,
      `bank_account;amount;reference\n${head}${"r".repeat(MAX_RECORD_CHARS - head.length)}\n`,
    );
    const opened = await openBatch(file, { currency: "HUF" });
    expect(opened.ok && opened.rowCount).toBe(1);
    if (opened.ok) for await (const _ of opened.chunks(10)); // removes the spool
  });

  it("stops a splitter fed an endless line after about the bound, not at the line's end", () => {
    const splitter = new RecordSplitter(";", 1, false);
    const piece = "a".repeat(16 * 1024);
    let fed = 0;
    let refused: unknown;
    try {
      // 10 MiB in pieces; the old reader took them all, carrying a longer string each time.
      for (let i = 0; i < 640; i++) {
        fed += piece.length;
        splitter.push(piece);
      }
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(RecordTooLongError);
    expect((refused as RecordTooLongError).line).toBe(2);
    expect(fed).toBeLessThanOrEqual(MAX_RECORD_CHARS + piece.length);
  });

  it("reads not much more than the bound of a 10 MB single-line file (bytes counted through a pipe)", async () => {
    const fifo = join(dir, "endless.fifo");
    execFileSync("mkfifo", [fifo]);
    const total = 10 * 1024 * 1024;
    const writer = createWriteStream(fifo);
    let taken = 0;
    const writing = (async () => {
      const chunk = Buffer.alloc(64 * 1024, "a");
      await new Promise((resolve) => writer.once("open", resolve));
      writer.write("bank_account;amount;reference\n");
      for (let sent = 0; sent < total && !writer.destroyed; sent += chunk.length) {
        const more = writer.write(chunk, (error) => {
          if (!error) taken += chunk.length;
        });
        if (!more) {
          const stop = await new Promise<boolean>((resolve) => {
            writer.once("drain", () => resolve(false));
            writer.once("error", () => resolve(true));
            writer.once("close", () => resolve(true));
          });
          if (stop) break;
        }
      }
      writer.destroy();
    })();
    writer.on("error", () => {});
    let refused: unknown;
    try {
      for await (const _ of recordsOf({
        path: fifo,
        encoding: "utf-8",
        delimiter: ";",
        skip: 1,
        crOnly: false,
      }));
    } catch (error) {
      refused = error;
    }
    await writing;
    expect(refused).toBeInstanceOf(RecordTooLongError);
    expect((refused as RecordTooLongError).line).toBe(2);
    // What the pipe, the stream buffers and the held-back line can hold: a small part of 10 MB.
    expect(taken).toBeLessThan(2 * 1024 * 1024);
  });
});

describe("a NUL character", () => {
  it("refuses a cell with a NUL, naming its line", async () => {
    const problems = await problemsOf(
      `bank_account;amount;reference\n${ACCOUNT};100;R1\n${ACCOUNT};200;a\0b\n`,
    );
    expect(problems).toEqual([{ line: 3, message: expect.stringContaining("line 3 holds a NUL character") }]);
  });

  it("names the line a NUL stands on inside a quoted record over several lines", async () => {
    const problems = await problemsOf(`bank_account;amount;reference\n${ACCOUNT};100;"one\ntwo\0"\n`);
    expect(problems.map((p) => p.line)).toEqual([3]);
  });

  it("refuses a NUL in an 8-bit file", async () => {
    const text = `bank_account;amount;name\n${ACCOUNT};100;Kovács\0\n`;
    const problems = await problemsOf(iconv.encode(text, "windows-1250"), "windows-1250");
    expect(problems.map((p) => p.line)).toEqual([2]);
  });
});

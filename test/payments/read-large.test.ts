/**
 * A 200,000-row bank export is read through chunks to its last line in bounded memory. The read
 * runs in a Node process of its own whose old space is capped below what the rows take when held
 * all at once: it can finish only if chunks already handed out are let go. The cap decides, not a
 * resident-size reading, which on a busy machine moves with when the collector happens to run.
 */
import { execFile } from "node:child_process";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROWS = 200_000;
/** The streaming read's old space, in MB: it finishes in 16 here, and holding the rows takes about 75. */
const CAP_MB = 24;
const run = promisify(execFile);
let dir: string;
let path: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "regwatch-read-large-"));
  path = join(dir, "big.csv");
  await writeExport(path, ROWS);
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A Windows-1250 bank export of `rows` payments, written as a stream. */
async function writeExport(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(iconv.encode(text, "windows-1250"))) await once(out, "drain");
  };
  await write("Csoportos átutalás\r\nKedvezményezett neve;Számlaszám;Összeg;Közlemény\r\n");
  let block = "";
  for (let i = 1; i <= rows; i++) {
    block += `Šimon és Kővári ${i} Kft.;11773016-${String(i).padStart(8, "0")};${i},50\u00a0Ft;Számla ${i}\r\n`;
    if (i % 5000 === 0) {
      await write(block);
      block = "";
    }
  }
  await write(block);
  out.end();
  await once(out, "finish");
}

interface ReadReport {
  encoding: string;
  rowCount: number;
  count: number;
  largestChunk: number;
  last: unknown;
  /** The heap in use after a full collection at the end, in MB (only with `--expose-gc`). */
  heapMb: number | null;
}

/** Reads the export in a process of its own started with `flags`; `hold` keeps every row. */
async function readInChild(flags: string[], hold: boolean): Promise<ReadReport> {
  const reader = JSON.stringify(pathToFileURL("src/formats/read/batch-reader.ts").href);
  const probe = `const { openBatch } = await import(${reader});
const opened = await openBatch(${JSON.stringify(path)}, { currency: "HUF" });
if (!opened.ok) throw new Error(JSON.stringify(opened.problems.slice(0, 3)));
const held = [];
let count = 0, largestChunk = 0, last;
for await (const chunk of opened.chunks(5000)) {
  count += chunk.length;
  largestChunk = Math.max(largestChunk, chunk.length);
  last = chunk[chunk.length - 1];
  if (${hold}) held.push(...chunk);
}
globalThis.gc?.();
const heapMb = globalThis.gc ? process.memoryUsage().heapUsed / 2 ** 20 : null;
process.stdout.write(JSON.stringify({ encoding: opened.layout.encoding, rowCount: opened.rowCount, count, largestChunk, last, heapMb, held: held.length }));`;
  const { stdout } = await run(
    process.execPath,
    [...flags, "--import", "tsx", "--input-type=module", "-e", probe],
    {
      encoding: "utf8",
    },
  );
  return JSON.parse(stdout) as ReadReport;
}

describe("a 200,000-row export", () => {
  it("is read through chunks to its last line with less old space than its rows take", {
    timeout: 120_000,
  }, async () => {
    const read = await readInChild([`--max-old-space-size=${CAP_MB}`], false);
    expect(read).toMatchObject({ encoding: "windows-1250", rowCount: ROWS, count: ROWS, largestChunk: 5000 });
    expect(read.last).toMatchObject({
      line: ROWS + 2,
      name: `Šimon és Kővári ${ROWS} Kft.`,
      bankAccount: `11773016-${String(ROWS).padStart(8, "0")}`,
      amount: `${ROWS}.5`,
      reference: `Számla ${ROWS}`,
    });
  });

  it("holds rows that would not fit in that cap", { timeout: 120_000 }, async () => {
    // What the cap is measured against: the same read keeping every row needs well over twice it.
    const held = await readInChild(["--expose-gc"], true);
    expect(held.count).toBe(ROWS);
    expect(held.heapMb).toBeGreaterThan(2 * CAP_MB);
  });
});

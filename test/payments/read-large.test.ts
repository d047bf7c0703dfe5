import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentRow } from "../../src/formats/batch-row.ts";
import { openBatch } from "../../src/formats/read/batch-reader.ts";

const ROWS = 200_000;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "regwatch-read-large-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A Windows-1250 bank export of `rows` payments, written as a stream. */
async function writeExport(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
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

describe("a 200,000-row export", () => {
  it("is read through chunks to its last line in bounded memory", { timeout: 120_000 }, async () => {
    const path = join(dir, "big.csv");
    await writeExport(path, ROWS);
    const before = process.memoryUsage().rss;
    let peak = before;
    const opened = await openBatch(path, { currency: "HUF" });
    if (!opened.ok) throw new Error(JSON.stringify(opened.problems.slice(0, 3)));
    expect(opened.layout.encoding).toBe("windows-1250");
    expect(opened.rowCount).toBe(ROWS);
    let count = 0;
    let last: PaymentRow | undefined;
    for await (const chunk of opened.chunks(5000)) {
      expect(chunk.length).toBeLessThanOrEqual(5000);
      count += chunk.length;
      last = chunk[chunk.length - 1];
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    expect(count).toBe(ROWS);
    expect(last).toMatchObject({
      line: ROWS + 2,
      name: `Šimon és Kővári ${ROWS} Kft.`,
      bankAccount: `11773016-${String(ROWS).padStart(8, "0")}`,
      amount: `${ROWS}.5`,
      reference: `Számla ${ROWS}`,
    });
    // The file is about 14 MB of text, well over 100 MB as row objects: the growth stays far below.
    expect((peak - before) / 2 ** 20).toBeLessThan(80);
  });
});

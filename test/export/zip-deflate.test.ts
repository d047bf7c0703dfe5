// The streamed zip's native compression (NativeZipDeflate inside fflate's Zip) and the UTF-8
// chunks an .xlsx sheet is encoded into before it.
import { crc32 } from "node:zlib";
import { strFromU8, unzipSync, Zip } from "fflate";
import { describe, expect, it } from "vitest";
import { Utf8Chunks } from "../../src/formats/write/utf8-chunks.ts";
import { xmlText } from "../../src/formats/write/xlsx-parts.ts";
import { NativeZipDeflate } from "../../src/formats/write/zip-deflate.ts";

/** A zip of `files` (name, chunks) written through NativeZipDeflate; its bytes. */
async function zipOf(files: [string, Buffer[]][], level = 3): Promise<Uint8Array> {
  const out: Uint8Array[] = [];
  const done = new Promise<void>((resolve, reject) => {
    const zip = new Zip((error, data, final) => {
      if (error) return reject(error);
      out.push(data);
      if (final) resolve();
    });
    for (const [name, chunks] of files) {
      const part = new NativeZipDeflate(name, level);
      zip.add(part);
      for (const [i, chunk] of chunks.entries()) part.push(chunk, i === chunks.length - 1);
    }
    zip.end();
  });
  await done;
  return Buffer.concat(out);
}

describe("NativeZipDeflate", () => {
  it("makes entries any unzip reads back whole, with their sizes and CRCs", async () => {
    const big = Array.from({ length: 40 }, (_, i) =>
      Buffer.from(`<row r="${i}">${"Árvíztűrő ".repeat(5000)}</row>`),
    );
    const bytes = await zipOf([
      ["xl/worksheets/sheet1.xml", big],
      ["xl/styles.xml", [Buffer.from("<styleSheet/>")]],
      ["empty.xml", [Buffer.alloc(0)]],
    ]);
    const parts = unzipSync(bytes);
    expect(Buffer.from(parts["xl/worksheets/sheet1.xml"]!).equals(Buffer.concat(big))).toBe(true);
    expect(strFromU8(parts["xl/styles.xml"]!)).toBe("<styleSheet/>");
    expect(parts["empty.xml"]!.length).toBe(0);
    // Compressed (method 8), far smaller than the 2.8 MB of repeated text.
    expect(bytes.length).toBeLessThan(100_000);
    const central = Buffer.from(bytes).indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    expect(Buffer.from(bytes).readUInt16LE(central + 10)).toBe(8);
    expect(Buffer.from(bytes).readUInt32LE(central + 16)).toBe(crc32(Buffer.concat(big)));
  });

  it("is behind once more than its backlog waits, drains when caught up, and hands each chunk back", async () => {
    const part = new NativeZipDeflate("a.xml", 6, 64 * 1024);
    let out = 0;
    part.ondata = (error, data) => {
      if (error) throw error;
      out += data.length;
    };
    let consumed = 0;
    for (let i = 0; i < 8; i++) part.push(Buffer.alloc(32 * 1024, i), false, () => consumed++);
    expect(part.behind).toBe(true);
    await part.drained();
    expect(part.behind).toBe(false);
    expect(consumed).toBeGreaterThan(0);
    part.push(Buffer.alloc(0), true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(consumed).toBe(8);
    expect(part.size).toBe(8 * 32 * 1024);
    expect(out).toBeGreaterThan(0);
  });
});

describe("Utf8Chunks", () => {
  it("gathers text into buffers no larger than asked, characters never split, the last one final", () => {
    const got: { text: string; final: boolean }[] = [];
    const chunks = new Utf8Chunks((bytes, final, release) => {
      got.push({ text: bytes.toString("utf8"), final });
      release();
    }, 64);
    const pieces = Array.from({ length: 50 }, (_, i) => `<c>ő${i}😀</c>`);
    for (const piece of pieces) chunks.write(piece);
    chunks.write("x".repeat(100)); // larger than a buffer: handed on by itself
    chunks.end();
    expect(got.map((g) => g.text).join("")).toBe(pieces.join("") + "x".repeat(100));
    expect(got.every((g) => Buffer.byteLength(g.text) <= 64 || g.text === "x".repeat(100))).toBe(true);
    expect(got.filter((g) => g.final)).toHaveLength(1);
    expect(got.at(-1)!.final).toBe(true);
  });

  it("fills a released buffer again instead of allocating", () => {
    const emitted: ArrayBufferLike[] = [];
    const held: (() => void)[] = [];
    const chunks = new Utf8Chunks((bytes, _final, release) => {
      emitted.push(bytes.buffer);
      held.push(release);
    }, 8192);
    const text = "x".repeat(2000);
    // Two texts fit a buffer (room is kept for three bytes a character): the third starts another.
    for (let i = 0; i < 3; i++) chunks.write(text);
    expect(emitted).toHaveLength(1);
    for (const release of held.splice(0)) release();
    for (let i = 0; i < 4; i++) chunks.write(text);
    chunks.end();
    expect(emitted).toHaveLength(4);
    expect(emitted[1]).not.toBe(emitted[0]);
    expect(emitted[2]).toBe(emitted[0]);
    expect(emitted[3]).not.toBe(emitted[0]);
  });
});

describe("xmlText", () => {
  it("leaves plain text as it is and escapes or drops the rest", () => {
    const plain = "Kővári Ügyvédi Iroda 12/2026 számla 😀";
    expect(xmlText(plain)).toBe(plain);
    expect(xmlText('a<b>&"c"\u0001\uD800\uFFFE')).toBe("a&lt;b&gt;&amp;&quot;c&quot;");
    expect(xmlText("\t\n\r")).toBe("\t\n\r");
  });
});

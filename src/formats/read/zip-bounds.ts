/**
 * Refusing a zip bomb before an `.xlsx` is opened (an `.xlsx` is a zip archive): every entry of the
 * archive is inflated once, counting its bytes and keeping none, and the archive is refused as soon
 * as the whole inflates to more than MAX_XLSX_UNCOMPRESSED bytes or holds more than MAX_ZIP_ENTRIES
 * entries, whatever sizes the archive declares. Only what passes is given to the workbook reader.
 */
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { Readable } from "node:stream";
import { createInflateRaw } from "node:zlib";

/** What all entries of an uploaded workbook may inflate to together: 256 MiB. */
export const MAX_XLSX_UNCOMPRESSED = 256 * 1024 * 1024;
export const MAX_ZIP_ENTRIES = 10_000;

/**
 * Why a workbook is refused, in English for the CLI ({…} are filled in); the console says the same
 * reason in its reader's language from the error's `reason` and `values`.
 */
export const XLSX_REFUSAL_TEXT = {
  notZip: "the file is not a readable .xlsx workbook (its zip directory cannot be read)",
  tooBig:
    "the workbook unpacks to more than {max} MiB, more than a payment batch holds: it was not read (save the sheet as CSV, or split it)",
  tooMany: "the workbook holds more than {max} parts: it was not read",
  unsupported:
    "the workbook uses a zip feature regwatch does not read ({what}): save it again from Excel, or as CSV",
  compression:
    "the workbook uses a zip feature regwatch does not read (compression method {method}): save it again from Excel, or as CSV",
  longCell:
    "row {row} has a cell longer than {max} characters, more than a payment's field can hold: the file was not read further",
  tooManyStrings:
    "the workbook holds more than {max} shared texts or more than {chars} characters of them, more than a payment batch holds: it was not read (save the sheet as CSV, or split it)",
  noSheet: "the workbook has no sheet to read",
  malformed:
    "the workbook is damaged: a part of it cannot be read ({detail}); save it again from Excel, or as CSV",
} as const;

export type XlsxRefusal = keyof typeof XLSX_REFUSAL_TEXT;

export class XlsxRefusedError extends Error {
  constructor(
    readonly reason: XlsxRefusal,
    readonly values: Record<string, string | number> = {},
    options?: ErrorOptions,
  ) {
    super(
      XLSX_REFUSAL_TEXT[reason].replace(/\{(\w+)\}/g, (w, k: string) =>
        values[k] === undefined ? w : String(values[k]),
      ),
      options,
    );
    this.name = "XlsxRefusedError";
  }
}

/** Whether the file starts as a zip archive does (PK\x03\x04). */
export async function looksLikeZip(path: string): Promise<boolean> {
  const file = await open(path, "r");
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await file.read(head, 0, 4, 0);
    return bytesRead === 4 && head.readUInt32LE(0) === 0x04034b50;
  } finally {
    await file.close();
  }
}

/** One part of the archive: its name, how it is stored and where its data starts. */
export interface ZipEntry {
  name: string;
  method: number;
  compressed: number;
  localOffset: number;
}

async function readEntries(path: string): Promise<ZipEntry[]> {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const tailLength = Math.min(size, 65_557);
    const tail = Buffer.alloc(tailLength);
    await file.read(tail, 0, tailLength, size - tailLength);
    const end = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (end < 0 || end + 22 > tail.length) throw new XlsxRefusedError("notZip");
    const count = tail.readUInt16LE(end + 10);
    const dirSize = tail.readUInt32LE(end + 12);
    const dirOffset = tail.readUInt32LE(end + 16);
    if (count === 0xffff || dirOffset === 0xffffffff)
      throw new XlsxRefusedError("unsupported", { what: "zip64" });
    if (count > MAX_ZIP_ENTRIES) throw new XlsxRefusedError("tooMany", { max: MAX_ZIP_ENTRIES });
    if (dirOffset + dirSize > size) throw new XlsxRefusedError("notZip");
    const dir = Buffer.alloc(dirSize);
    await file.read(dir, 0, dirSize, dirOffset);
    const entries: ZipEntry[] = [];
    let at = 0;
    for (let i = 0; i < count; i++) {
      if (at + 46 > dir.length || dir.readUInt32LE(at) !== 0x02014b50) throw new XlsxRefusedError("notZip");
      const method = dir.readUInt16LE(at + 10);
      const compressed = dir.readUInt32LE(at + 20);
      const localOffset = dir.readUInt32LE(at + 42);
      if (compressed === 0xffffffff || localOffset === 0xffffffff)
        throw new XlsxRefusedError("unsupported", { what: "zip64" });
      if (method !== 0 && method !== 8) throw new XlsxRefusedError("compression", { method });
      const name = dir.toString("utf8", at + 46, at + 46 + dir.readUInt16LE(at + 28));
      entries.push({ name, method, compressed, localOffset });
      at += 46 + dir.readUInt16LE(at + 28) + dir.readUInt16LE(at + 30) + dir.readUInt16LE(at + 32);
    }
    // Where each entry's data starts: after its local header, whose name and extra lengths may differ.
    for (const entry of entries) {
      const local = Buffer.alloc(30);
      await file.read(local, 0, 30, entry.localOffset);
      if (local.readUInt32LE(0) !== 0x04034b50) throw new XlsxRefusedError("notZip");
      entry.localOffset += 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      if (entry.localOffset + entry.compressed > size) throw new XlsxRefusedError("notZip");
    }
    return entries;
  } finally {
    await file.close();
  }
}

/** Inflates one entry, counting; rejects once `budget` bytes are passed. Returns the bytes it gave. */
function inflatedSize(path: string, entry: ZipEntry, budget: number, max: number): Promise<number> {
  if (entry.method === 0) return Promise.resolve(entry.compressed);
  return new Promise((resolve, reject) => {
    let total = 0;
    const source =
      entry.compressed === 0
        ? null
        : createReadStream(path, {
            start: entry.localOffset,
            end: entry.localOffset + entry.compressed - 1,
          });
    if (source === null) return resolve(0);
    const inflate = createInflateRaw();
    const stop = (error: Error) => {
      source.destroy();
      inflate.destroy();
      reject(error);
    };
    inflate.on("data", (chunk: Buffer) => {
      total += chunk.length;
      if (total > budget) stop(new XlsxRefusedError("tooBig", { max: max / 1024 / 1024 }));
    });
    inflate.on("end", () => resolve(total));
    inflate.on("error", () => stop(new XlsxRefusedError("notZip")));
    source.on("error", stop);
    source.pipe(inflate);
  });
}

/**
 * Throws XlsxRefusedError unless the whole archive inflates within MAX_XLSX_UNCOMPRESSED bytes;
 * returns its entries, for the workbook reader to open the parts it needs.
 */
export async function checkZipBounds(path: string, max = MAX_XLSX_UNCOMPRESSED): Promise<ZipEntry[]> {
  let left = max;
  const entries = await readEntries(path);
  for (const entry of entries) {
    left -= await inflatedSize(path, entry, left, max);
    if (left < 0) throw new XlsxRefusedError("tooBig", { max: max / 1024 / 1024 });
  }
  return entries;
}

/** One entry's content as a stream of bytes (inflated when deflated); checkZipBounds has passed it. */
export function entryStream(path: string, entry: ZipEntry): Readable {
  if (entry.compressed === 0) return Readable.from([]);
  const source = createReadStream(path, {
    start: entry.localOffset,
    end: entry.localOffset + entry.compressed - 1,
  });
  if (entry.method === 0) return source;
  const inflate = createInflateRaw();
  source.on("error", (error) => inflate.destroy(error));
  inflate.on("close", () => source.destroy());
  return source.pipe(inflate);
}

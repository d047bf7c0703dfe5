/**
 * Decoding a single-byte encoding (Windows-1250, ISO-8859-2, ...) with iconv-lite's own table of
 * the encoding, but without its per-piece work: iconv-lite's decoder makes a zero-filled buffer
 * twice the piece's size for every piece and copies each character byte by byte. Here the table
 * is read once into 256 UTF-16 units, and each piece is looked up into one buffer kept for the
 * whole file, then read as UTF-16. Byte for byte the same text as iconv-lite gives (its table,
 * also where a byte has no character: U+FFFD).
 */
import { endianness } from "node:os";

interface TableDecoder {
  decodeBuf?: unknown;
}

export class SingleByteDecoder {
  private readonly table = new Uint16Array(256);
  private out = Buffer.alloc(0);
  private units = new Uint16Array(0);

  private constructor(table: Buffer) {
    for (let b = 0; b < 256; b++) this.table[b] = table.readUInt16LE(2 * b);
  }

  /**
   * The fast decoder for iconv-lite's `decoder` when it is a plain single-byte one (its table
   * of 256 UTF-16 units shows it); null otherwise. A big-endian host keeps iconv-lite's.
   */
  static of(decoder: unknown): SingleByteDecoder | null {
    const table = (decoder as TableDecoder).decodeBuf;
    if (!Buffer.isBuffer(table) || table.length !== 512 || endianness() !== "LE") return null;
    return new SingleByteDecoder(table);
  }

  write(bytes: Uint8Array): string {
    const n = bytes.length;
    if (n === 0) return "";
    if (this.units.length < n) {
      this.out = Buffer.allocUnsafe(2 * n);
      this.units = new Uint16Array(this.out.buffer, this.out.byteOffset, n);
    }
    const { table, units } = this;
    for (let i = 0; i < n; i++) units[i] = table[bytes[i] as number] as number;
    return this.out.toString("utf16le", 0, 2 * n);
  }
}

/**
 * One deflated file of a streamed zip (fflate's Zip writes the headers, the data descriptor and
 * the central directory around it), compressed by Node's own zlib rather than fflate's
 * JavaScript deflate: the native code is several times faster, and its streams compress on
 * libuv's thread pool, so a workbook is compressed on another core while the rows are built.
 * Compression runs behind the caller; `drained()` is what bounds the data waiting for it.
 */
import { crc32, createDeflateRaw, type DeflateRaw } from "node:zlib";
import type { AsyncFlateStreamHandler, FlateError, ZipInputFile } from "fflate";

/** A zip entry's sizes and offsets are 32 bits wide without the zip64 extension fflate lacks. */
const ZIP32_LIMIT = 0xffff_ffff;

export class NativeZipDeflate implements ZipInputFile {
  readonly compression = 8;
  /** General purpose bits 1-2: the deflate level class (APPNOTE 4.4.4), as fflate sets them. */
  readonly flag: number;
  size = 0;
  crc = 0;
  ondata: AsyncFlateStreamHandler = () => {};
  private readonly deflate: DeflateRaw;
  private failed = false;

  /**
   * `level` is zlib's (1 fastest to 9 smallest); up to `backlog` bytes may wait for compression
   * before `behind` says so.
   */
  constructor(
    readonly filename: string,
    level: number,
    backlog = 64 * 1024,
  ) {
    this.flag = level === 1 ? 3 : level < 6 ? 2 : level === 9 ? 1 : 0;
    // zlib's streams take a Transform's options besides their own (Node's typings omit them).
    const options = { level, chunkSize: 64 * 1024, writableHighWaterMark: backlog };
    this.deflate = createDeflateRaw(options);
    this.deflate.on("data", (data: Buffer<ArrayBuffer>) => this.ondata(null, data, false));
    this.deflate.on("end", () => this.ondata(null, new Uint8Array(0), true));
    this.deflate.on("error", (error) => this.fail(error));
  }

  /**
   * Adds uncompressed bytes; `final` ends the file. `consumed` is called once the compressor no
   * longer needs `chunk` (its bytes may then be overwritten).
   */
  push(chunk: Uint8Array, final = false, consumed?: () => void): void {
    if (this.failed) return;
    this.size += chunk.length;
    if (this.size > ZIP32_LIMIT) {
      this.fail(new Error(`${this.filename} is larger than the 4 GiB a zip entry may hold`));
      return;
    }
    if (chunk.length) {
      this.crc = crc32(chunk, this.crc);
      this.deflate.write(chunk, consumed);
    }
    if (final) this.deflate.end();
  }

  /** Whether compression is behind by more than the stream's buffer. */
  get behind(): boolean {
    return this.deflate.writableNeedDrain;
  }

  /** Resolves once compression has caught up with what was pushed (or failed). */
  drained(): Promise<void> {
    if (!this.behind || this.failed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.deflate.off("drain", done);
        this.deflate.off("close", done);
        resolve();
      };
      this.deflate.on("drain", done);
      this.deflate.on("close", done);
    });
  }

  /** Called by fflate's Zip when the archive is abandoned. */
  terminate(): void {
    this.failed = true;
    this.deflate.destroy();
  }

  private fail(error: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.deflate.destroy();
    // fflate's handler takes no data with an error.
    this.ondata(error as FlateError, new Uint8Array(0), true);
  }
}

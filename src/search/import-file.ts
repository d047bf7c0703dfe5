/**
 * Reading the file of `regwatch watch import` as people have it: UTF-8 (with or without a BOM),
 * UTF-16 from Excel's "Unicode text", or the 8-bit Windows-1250 / ISO-8859-2 of Hungarian
 * exports, told apart by the payment reader's detection (src/formats/read/encoding.ts).
 */
import { readFile } from "node:fs/promises";
import { decodeSample, detectEncoding } from "../formats/read/encoding.ts";

/** The largest import file read (a supplier master of a few hundred thousand rows fits). */
export const MAX_IMPORT_BYTES = 64 * 1024 * 1024;

export interface ImportText {
  text: string;
  encoding: string;
  /** Set when the content gave no clear sign and the Hungarian default was taken. */
  note: string | null;
}

/** User-visible sentences of this module ({…} are filled in). */
export const IMPORT_FILE_TEXT = {
  tooLarge: "{file} is larger than {max} bytes, more than an import file holds",
} as const;

export class ImportFileTooLargeError extends Error {
  constructor(file: string) {
    super(IMPORT_FILE_TEXT.tooLarge.replace("{file}", file).replace("{max}", String(MAX_IMPORT_BYTES)));
    this.name = "ImportFileTooLargeError";
  }
}

/** The decoded text of the file (a BOM left for the parser to drop). */
export function decodeImportBytes(bytes: Buffer): ImportText {
  const detected = detectEncoding(bytes, true);
  return { text: decodeSample(bytes, detected.encoding), encoding: detected.encoding, note: detected.note };
}

export async function readImportFile(file: string): Promise<ImportText> {
  const bytes = await readFile(file);
  if (bytes.length > MAX_IMPORT_BYTES) throw new ImportFileTooLargeError(file);
  return decodeImportBytes(bytes);
}

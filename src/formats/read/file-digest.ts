/**
 * A file's size and SHA-256, read as a stream: what the evidence report names so a reader can
 * tell the file checked from any other.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";

export interface FileDigest {
  size: number;
  sha256: string;
}

export async function fileDigest(file: string): Promise<FileDigest> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    size += (chunk as Buffer).length;
    hash.update(chunk as Buffer);
  }
  return { size, sha256: hash.digest("hex") };
}

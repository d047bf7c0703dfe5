/**
 * Turning a stored body's bytes into text by the charset it declares (or the byte-order mark it
 * starts with). Registries and the systems in front of them still send Windows-1250 and
 * ISO-8859-2, and now and then UTF-16; reading those as UTF-8 stores mojibake as if it were the
 * business's name. A body that cannot be decoded is reported, never guessed at.
 */
import iconv from "iconv-lite";

export type Decoded = { text: string } | { error: string };

/** The `charset` parameter of a content type, lower-cased, or null when it names none. */
export function charsetOf(contentType: string | null): string | null {
  if (!contentType) return null;
  const match = /;\s*charset\s*=\s*("?)([^";\s]+)\1/i.exec(contentType);
  return match ? match[2]!.toLowerCase() : null;
}

/** UTF-8 in all its spellings (and no charset at all: JSON's own default). */
export function isUtf8(charset: string | null): boolean {
  return charset === null || charset === "utf-8" || charset === "utf8";
}

const GZIP = [0x1f, 0x8b];

function startsWith(bytes: Buffer, prefix: readonly number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

/** The charset a byte-order mark announces; it wins over the declared one, as browsers decide. */
function charsetOfMark(bytes: Buffer): string | null {
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return "utf-8";
  if (startsWith(bytes, [0xff, 0xfe])) return "utf-16le";
  if (startsWith(bytes, [0xfe, 0xff])) return "utf-16be";
  return null;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

export function decodeBody(bytes: Buffer, contentType: string | null): Decoded {
  if (startsWith(bytes, GZIP)) {
    return {
      error: "the body is gzip-compressed bytes (it starts with 1f 8b), not text; it was not decoded",
    };
  }
  const declared = charsetOf(contentType);
  const charset = charsetOfMark(bytes) ?? declared;
  if (isUtf8(charset)) {
    try {
      // TextDecoder drops a leading UTF-8 byte-order mark.
      return { text: strictUtf8.decode(bytes) };
    } catch {
      return {
        error: `the body is not valid UTF-8${declared === null ? " and declares no other charset" : ""}; it was not decoded`,
      };
    }
  }
  if (!iconv.encodingExists(charset!)) {
    return { error: `the body declares charset ${charset}, which regwatch cannot decode` };
  }
  if (charset!.startsWith("utf-16") && bytes.length % 2 !== 0) {
    return { error: `the body declares ${charset} but has an odd number of bytes (${bytes.length})` };
  }
  // iconv-lite drops a byte-order mark; bytes a single-byte charset does not define come out as U+FFFD.
  const text = iconv.decode(bytes, charset!);
  if (text.includes("\uFFFD")) {
    return { error: `the body holds bytes that are not ${charset} text; it was not decoded` };
  }
  return { text };
}

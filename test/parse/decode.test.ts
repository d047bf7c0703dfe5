/**
 * Bodies kept as bytes are read by the charset they declare (or the byte-order mark they start
 * with); one that cannot be decoded is failed with a message, never read as mojibake.
 */
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { charsetOf, decodeBody } from "../../src/parse/decode.ts";
import { parseBody } from "../../src/parse/parse-body.ts";
import { unstorable } from "../../src/parse/storable.ts";
import { BodyInspector } from "../../src/sync/file-body.ts";

const NAME = "Árvíztűrő Tükörfúrógép Kft.";
const body = (name: string) =>
  JSON.stringify({
    tax_id: "12345678",
    changes: [{ heading: "long_name", old_value: null, new_value: name }],
  });

function parsedName(bytes: Buffer, contentType: string | null) {
  const outcome = parseBody({ path: "p", contentType, json: undefined, bytes });
  return outcome.status === "parsed" ? outcome.values[0]!.newValue : outcome;
}

describe("decoding a body by its charset", () => {
  it("reads the content type's charset parameter in any spelling", () => {
    expect(charsetOf("application/json; charset=Windows-1250")).toBe("windows-1250");
    expect(charsetOf('application/json;charset="ISO-8859-2"')).toBe("iso-8859-2");
    expect(charsetOf("application/json")).toBeNull();
    expect(charsetOf(null)).toBeNull();
  });

  it("reads Windows-1250, ISO-8859-2 and UTF-16 (with a byte-order mark) as written", () => {
    for (const charset of ["windows-1250", "iso-8859-2"]) {
      const bytes = iconv.encode(body(NAME), charset);
      expect(parsedName(bytes, `application/json; charset=${charset}`), charset).toBe(NAME);
    }
    const le = iconv.encode(body(NAME), "utf-16le", { addBOM: true });
    expect(parsedName(le, "application/json; charset=utf-16")).toBe(NAME);
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode(body(NAME), "utf-16be")]);
    expect(parsedName(be, "application/json")).toBe(NAME);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body(NAME))]);
    expect(parsedName(bom, "application/json")).toBe(NAME);
  });

  it("fails a body it cannot decode, saying why", () => {
    const latin2 = iconv.encode(body(NAME), "windows-1250");
    expect(parsedName(latin2, "application/json")).toMatchObject({
      status: "failed",
      reason: expect.stringContaining("not valid UTF-8 and declares no other charset"),
    });
    expect(parsedName(Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]), "application/json")).toMatchObject({
      status: "failed",
      reason: expect.stringContaining("gzip-compressed"),
    });
    expect(parsedName(Buffer.from(body(NAME)), "application/json; charset=klingon")).toMatchObject({
      status: "failed",
      reason: "the body declares charset klingon, which regwatch cannot decode",
    });
    expect(decodeBody(Buffer.from([0x7b, 0x81, 0x7d]), "text/plain; charset=windows-1250")).toEqual({
      error: "the body holds bytes that are not windows-1250 text; it was not decoded",
    });
    // Not labelled JSON and not decodable: some other parser's business, not a failure.
    expect(parsedName(Buffer.from([0xff, 0x00, 0x81]), "application/octet-stream")).toMatchObject({
      status: "unrecognised",
    });
  });

  it("keeps as bytes, for the parser, every body jsonb would refuse or misread", () => {
    const asJson = (text: string | Buffer, contentType = "application/json") => {
      const inspector = new BodyInspector(contentType);
      const bytes = Buffer.from(text);
      // Split inside the interesting part, as a chunk boundary might.
      inspector.update(bytes.subarray(0, 20));
      inspector.update(bytes.subarray(20));
      return inspector.finish().asJson;
    };
    expect(asJson(body("plain"))).toBe(true);
    expect(asJson(body("plain"), "application/json; charset=utf-8")).toBe(true);
    expect(asJson(body("plain"), "application/json; charset=windows-1250")).toBe(false);
    expect(asJson(`\uFEFF${body("plain")}`)).toBe(false);
    expect(asJson('{"changes":"x\\u0000y"}')).toBe(false);
    expect(asJson('{"chang":"\\ud800"}')).toBe(false);
    expect(asJson(iconv.encode(body(NAME), "utf-16le", { addBOM: true }))).toBe(false);
  });
});

describe("values Postgres cannot hold", () => {
  it("names where a NUL or half a surrogate pair is", () => {
    expect(unstorable({ a: ["ok", "x\u0000"] }, "v")).toBe(
      "v.a[1] holds a NUL character (\\u0000), which Postgres cannot store",
    );
    expect(unstorable("\ud800", "v")).toBe(
      "v holds half of a UTF-16 surrogate pair, which Postgres cannot store",
    );
    expect(unstorable({ "k\u0000": 1 }, "v")).toContain("a key in v holds a NUL");
    expect(unstorable(["😀", { nested: "fine" }], "v")).toBeNull();
  });
});

import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.ts";
import { detectEncoding, encodingOption } from "../../src/payments/read/encoding.ts";

const HUNGARIAN = "Név;Számlaszám\nKővári Ügyvédi Iroda;11773016-11111018\nŐrségi Űrtechnika Kft.;1\n";

describe("encoding detection", () => {
  it("takes a byte order mark at its word", () => {
    expect(detectEncoding(iconv.encode(HUNGARIAN, "utf-8", { addBOM: true }), true).encoding).toBe("utf-8");
    expect(detectEncoding(iconv.encode(HUNGARIAN, "utf-16le", { addBOM: true }), true).encoding).toBe(
      "utf-16le",
    );
    expect(detectEncoding(iconv.encode(HUNGARIAN, "utf-16be", { addBOM: true }), true).encoding).toBe(
      "utf-16be",
    );
  });

  it("reads UTF-16 without a mark from its zero bytes", () => {
    expect(detectEncoding(iconv.encode(HUNGARIAN, "utf-16le"), true).encoding).toBe("utf-16le");
    expect(detectEncoding(iconv.encode(HUNGARIAN, "utf-16be"), true).encoding).toBe("utf-16be");
  });

  it("takes valid UTF-8 (and plain ASCII) as UTF-8", () => {
    expect(detectEncoding(Buffer.from(HUNGARIAN), true)).toEqual({ encoding: "utf-8", note: null });
    expect(detectEncoding(Buffer.from("tax_id,bank_account\n1,2\n"), true)).toEqual({
      encoding: "utf-8",
      note: null,
    });
  });

  it.each(["Kő", "K€", "K😀"])("leaves out a character the sample's end cuts in two (%s)", (last) => {
    const bytes = Buffer.from(`${HUNGARIAN.replaceAll("\n", "\r")}${last}`);
    for (let cut = 1; cut < Buffer.from(last.slice(1)).length; cut++) {
      expect(detectEncoding(bytes.subarray(0, bytes.length - cut), false).encoding).toBe("utf-8");
    }
    expect(detectEncoding(bytes, false).encoding).toBe("utf-8");
  });

  it("tells Windows-1250 from ISO-8859-2 by the letters only one of them has", () => {
    const slovak = "Név;Számlaszám\nŠimon és Žofia Bt.;1\nŤažký Štefan;2\n";
    expect(detectEncoding(iconv.encode(slovak, "windows-1250"), true).encoding).toBe("windows-1250");
    expect(
      detectEncoding(iconv.encode("Név;Számla\nŠimon Ľubomír;1\nŠťastná;2\n", "iso-8859-2"), true).encoding,
    ).toBe("iso-8859-2");
  });

  it("takes Windows-1250, the Hungarian default, when only letters both encodings share occur", () => {
    const bytes = iconv.encode(HUNGARIAN, "windows-1250");
    const { encoding } = detectEncoding(bytes, true);
    expect(encoding).toBe("windows-1250");
    expect(iconv.decode(bytes, encoding)).toBe(HUNGARIAN);
  });

  it("falls back to Windows-1250, and says so, when the detector names nothing it accepts", () => {
    const bytes = Buffer.from([0x41, 0x3b, 0x42, 0x0a, 0xff, 0xfe - 1, 0x80, 0x0a]);
    const detected = detectEncoding(bytes, true);
    expect(detected.encoding).toBe("windows-1250");
    expect(detected.note).toMatch(/no clear sign.*windows-1250.*--encoding/);
  });
});

describe("--encoding", () => {
  it("accepts the names iconv-lite knows, in regwatch's spelling", () => {
    expect(encodingOption("CP1250")).toBe("windows-1250");
    expect(encodingOption("latin2")).toBe("iso-8859-2");
    expect(encodingOption("UTF8")).toBe("utf-8");
    expect(encodingOption("utf-16le")).toBe("utf-16le");
    expect(encodingOption("koi8-r")).toBe("koi8-r");
  });

  it("refuses an unknown name, naming it and some valid ones", () => {
    expect(() => encodingOption("hungarian")).toThrow(UsageError);
    expect(() => encodingOption("hungarian")).toThrow(
      /unknown encoding "hungarian" \(for example utf-8, windows-1250/,
    );
  });
});

import { analyse } from "chardet";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.ts";
import { detectEncoding, encodingOption } from "../../src/formats/read/encoding.ts";

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

describe("the 8-bit judgement", () => {
  /** What detectEncoding answered when it asked all of chardet's recognisers (its way before issue 38). */
  function throughAnalyse(bytes: Buffer): string {
    const best = analyse(bytes).find(
      (m) => m.confidence > 0 && ["windows-1250", "iso-8859-2"].includes(m.name.toLowerCase()),
    );
    if (!best) return "windows-1250 (no clear sign)";
    const differs = bytes.some(
      (b) =>
        b >= 0x80 &&
        b <= 0xbf &&
        iconv.decode(Buffer.from([b]), "windows-1250") !== iconv.decode(Buffer.from([b]), "iso-8859-2"),
    );
    return differs ? best.name.toLowerCase() : "windows-1250";
  }

  function asked(bytes: Buffer): string {
    const { encoding, note } = detectEncoding(bytes, true);
    return note === null ? encoding : `${encoding} (no clear sign)`;
  }

  // Seeded: the same bytes on every run.
  let seed = 38;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const texts: [string, string][] = [
    [HUNGARIAN.repeat(40), "windows-1250"],
    [HUNGARIAN.repeat(40), "iso-8859-2"],
    ["Nazwa;Konto\nŁódź Spółka z o.o.;1\nŚwiętochłowice Żabka;2\n".repeat(30), "iso-8859-2"],
    ["Nazwa;Konto\nŁódź Spółka z o.o.;1\nŚwiętochłowice Żabka;2\n".repeat(30), "windows-1250"],
    ["Název;Účet\nŠkoda Transportation a.s.;1\nŽďárské strojírny;2\n".repeat(30), "windows-1250"],
    ["Name;Konto\nMüller & Söhne GmbH;1\nCafé „Zur Börse“ – Köln;2\n".repeat(30), "windows-1252"],
    ["Имя;Счёт\nОбщество с ограниченной ответственностью;1\n".repeat(30), "windows-1251"],
    ["Név;Összeg\n„Kővári” – Bt.;1 000 Ft\n".repeat(30), "windows-1250"],
  ];

  it.each(texts.map(([text, encoding], i) => [i, encoding, text] as const))(
    "answers as all of chardet's recognisers did (sample %i, %s)",
    (_i, encoding, text) => {
      const bytes = iconv.encode(text, encoding);
      expect(asked(bytes)).toBe(throughAnalyse(bytes));
    },
  );

  it("answers as all of chardet's recognisers did on random 8-bit bytes", () => {
    for (let round = 0; round < 200; round++) {
      const length = 16 + Math.floor(random() * 2000);
      // Mostly letters and separators, with 8-bit bytes mixed in at a rate that varies by round.
      const rate = random();
      const bytes = Buffer.from(
        Array.from({ length }, () =>
          random() < rate * 0.3
            ? 0x80 + Math.floor(random() * 128)
            : [0x20, 0x3b, 0x0a, 0x61 + Math.floor(random() * 26)][Math.floor(random() * 4)]!,
        ),
      );
      if (bytes.every((b) => b < 0x80)) continue;
      expect(asked(bytes), `round ${round}`).toBe(throughAnalyse(bytes));
    }
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

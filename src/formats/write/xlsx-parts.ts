/**
 * The parts of an `.xlsx` around its sheets: the styles the cells used (collected as they are
 * written, so the styles part is written last), the workbook, its relationships and the content
 * types. Text in them is escaped, and characters XML cannot hold are dropped.
 */

/** Characters an XML 1.0 document cannot hold (control characters, lone surrogates, U+FFFE/F). */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Anything xmlText would change; surrogates (paired or not) take the careful path. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const NEEDS_ESCAPE = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

export function xmlText(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text
    .replace(NOT_XML, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

export const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE_REL = "http://schemas.openxmlformats.org/package/2006/relationships";

/** What a cell looks like: a number format (none: General), bold, a solid fill (RRGGBB). */
export interface CellStyle {
  numFmt?: string;
  bold?: boolean;
  fill?: string;
}

/** Excel's built-in number formats regwatch may ask for, by their fixed ids. */
const BUILT_IN_FORMATS: Record<string, number> = { General: 0, "0": 1, "0.00": 2, "mm-dd-yy": 14 };

/** The styles cells used, each given its index into `cellXfs` when first asked for. */
export class Styles {
  private readonly formats = new Map<string, number>();
  private readonly fills = new Map<string, number>();
  private readonly xfs = new Map<string, number>([["0,0,0", 0]]);
  /** Not-bold styles already indexed, by number format and then fill ("" for none). */
  private readonly cells = new Map<string, Map<string, number>>();

  /** As index() for a cell that is not bold, remembered: rows ask for the same few over and over. */
  cell(numFmt: string | undefined, fill: string | undefined): number {
    let byFill = this.cells.get(numFmt ?? "");
    if (!byFill) {
      byFill = new Map();
      this.cells.set(numFmt ?? "", byFill);
    }
    let xf = byFill.get(fill ?? "");
    if (xf === undefined) {
      xf = this.index({ numFmt, fill });
      byFill.set(fill ?? "", xf);
    }
    return xf;
  }

  /** The `s` attribute of a cell of this style (0 is the default style). */
  index(style: CellStyle): number {
    const format = style.numFmt ? this.formatId(style.numFmt) : 0;
    const font = style.bold ? 1 : 0;
    let fill = 0;
    if (style.fill) {
      fill = this.fills.get(style.fill) ?? this.fills.size + 2;
      this.fills.set(style.fill, fill);
    }
    const key = `${format},${font},${fill}`;
    let xf = this.xfs.get(key);
    if (xf === undefined) {
      xf = this.xfs.size;
      this.xfs.set(key, xf);
    }
    return xf;
  }

  private formatId(code: string): number {
    const builtIn = BUILT_IN_FORMATS[code];
    if (builtIn !== undefined) return builtIn;
    let id = this.formats.get(code);
    if (id === undefined) {
      id = 164 + this.formats.size;
      this.formats.set(code, id);
    }
    return id;
  }

  /** `xl/styles.xml`: fills 0 and 1 are the two Excel requires (none, gray125). */
  xml(): string {
    const formats = [...this.formats].map(
      ([code, id]) => `<numFmt numFmtId="${id}" formatCode="${xmlText(code)}"/>`,
    );
    const fills = [...this.fills.keys()].map(
      (rgb) =>
        `<fill><patternFill patternType="solid"><fgColor rgb="FF${rgb}"/><bgColor indexed="64"/></patternFill></fill>`,
    );
    const xfs = [...this.xfs.keys()].map((key) => {
      const [format, font, fill] = key.split(",");
      const applied = `${format !== "0" ? ' applyNumberFormat="1"' : ""}${font !== "0" ? ' applyFont="1"' : ""}${fill !== "0" ? ' applyFill="1"' : ""}`;
      return `<xf numFmtId="${format}" fontId="${font}" fillId="${fill}" borderId="0" xfId="0"${applied}/>`;
    });
    return (
      `${XML_HEAD}<styleSheet xmlns="${MAIN}">` +
      (formats.length ? `<numFmts count="${formats.length}">${formats.join("")}</numFmts>` : "") +
      `<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>` +
      `<fills count="${fills.length + 2}"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>${fills.join("")}</fills>` +
      `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
      `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
      `<cellXfs count="${xfs.length}">${xfs.join("")}</cellXfs>` +
      `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>` +
      `</styleSheet>`
    );
  }
}

/** `xl/workbook.xml`, `xl/_rels/workbook.xml.rels`, `_rels/.rels` and `[Content_Types].xml`. */
export function packageParts(sheets: readonly string[]): Record<string, string> {
  const sheetRels = sheets.map(
    (_, i) =>
      `<Relationship Id="rId${i + 1}" Type="${REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
  );
  const n = sheets.length;
  return {
    "[Content_Types].xml":
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
      `<Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
      sheets
        .map(
          (_, i) =>
            `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join("") +
      `<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
      `</Types>`,
    "_rels/.rels": `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    "xl/workbook.xml":
      `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><bookViews><workbookView/></bookViews><sheets>` +
      sheets
        .map((name, i) => `<sheet name="${xmlText(name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
        .join("") +
      `</sheets></workbook>`,
    "xl/_rels/workbook.xml.rels":
      `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL}">${sheetRels.join("")}` +
      `<Relationship Id="rId${n + 1}" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
  };
}

/** A sheet's name as Excel accepts it: none of `[]:*?/\`, at most 31 characters, unique. */
export function sheetName(name: string, taken: readonly string[]): string {
  const base = (name.replace(/[[\]:*?/\\]/g, " ").trim() || "Sheet").slice(0, 31);
  let candidate = base;
  for (let i = 2; taken.some((t) => t.toLowerCase() === candidate.toLowerCase()); i++) {
    candidate = `${base.slice(0, 31 - String(i).length - 1)} ${i}`;
  }
  return candidate;
}

/** The column letters of a 1-based column index (28 is AB). */
export function columnLetters(column: number): string {
  let letters = "";
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

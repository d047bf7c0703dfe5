/**
 * A printable report as a PDF, through pdfkit: A4, DejaVu Sans embedded (regular and bold, subset,
 * so ő and ű print), black on white, tables whose cells wrap and whose header repeats on each
 * page, "n / N" and a footer on every page. Deterministic: the same document and moment give the
 * same bytes (pdfkit derives the file's ID from its info, CreationDate included).
 */
import { createRequire } from "node:module";

export type PdfBlock =
  | { kind: "title"; text: string }
  | { kind: "heading"; text: string }
  | { kind: "paragraph"; text: string }
  /** Label and value pairs, one per line. */
  | { kind: "fields"; rows: readonly (readonly [string, string])[] }
  /** Columns with their share of the width; cells wrap. */
  | { kind: "table"; columns: readonly { title: string; share: number }[]; rows: readonly string[][] };

export interface PdfReport {
  title: string;
  author: string;
  /** The moment the report was made: the file's CreationDate. */
  madeAt: Date;
  /** Said at the foot of every page, before "n / N". */
  footer: string;
  blocks: readonly PdfBlock[];
}

const MARGIN = 42;
const FOOTER_GAP = 28;
const SIZE = { title: 15, heading: 11.5, text: 8.5, cell: 7.5, footer: 7 } as const;
const CELL_PAD = 3;

type Doc = PDFKit.PDFDocument;

/** The DejaVu fonts, resolved from the dejavu-fonts-ttf package at run time (not bundled). */
function fontFiles(): { regular: string; bold: string } {
  const require = createRequire(import.meta.url);
  return {
    regular: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf"),
    bold: require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf"),
  };
}

/** The report as PDF bytes. pdfkit is loaded on first use, so commands that write none never load it. */
export async function renderPdf(report: PdfReport): Promise<Buffer> {
  const PDFDocument = (await import("pdfkit")).default;
  const fonts = fontFiles();
  const doc: Doc = new PDFDocument({
    size: "A4",
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_GAP },
    bufferPages: true,
    info: {
      Title: report.title,
      Author: report.author,
      Creator: report.author,
      Producer: "regwatch (pdfkit)",
      CreationDate: report.madeAt,
    },
  });
  doc.registerFont("regular", fonts.regular);
  doc.registerFont("bold", fonts.bold);
  doc.fillColor("black").strokeColor("black");
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  for (const block of report.blocks) writeBlock(doc, block);
  numberPages(doc, report.footer);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

function contentWidth(doc: Doc): number {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right;
}

function bottom(doc: Doc): number {
  return doc.page.height - doc.page.margins.bottom;
}

/** A new page when `height` more points would not fit on this one. */
function ensureRoom(doc: Doc, height: number): void {
  if (doc.y + height > bottom(doc)) doc.addPage();
}

function writeBlock(doc: Doc, block: PdfBlock): void {
  const left = doc.page.margins.left;
  const width = contentWidth(doc);
  switch (block.kind) {
    case "title":
      doc.font("bold").fontSize(SIZE.title).text(block.text, left, doc.y, { width });
      doc.moveDown(0.5);
      return;
    case "heading":
      doc.font("bold").fontSize(SIZE.heading);
      // A heading never ends a page alone.
      ensureRoom(doc, doc.heightOfString(block.text, { width }) + 40);
      doc.moveDown(0.6).text(block.text, left, doc.y, { width });
      doc.moveDown(0.3);
      return;
    case "paragraph":
      doc.font("regular").fontSize(SIZE.text).text(block.text, left, doc.y, { width });
      doc.moveDown(0.4);
      return;
    case "fields":
      writeTable(doc, [{ share: 0.28 }, { share: 0.72 }], block.rows, { header: null, boldFirst: true });
      return;
    case "table":
      writeTable(doc, block.columns, block.rows, {
        header: block.columns.map((c) => c.title),
        boldFirst: false,
      });
      return;
  }
}

/** Rows of wrapping cells with thin borders; a header row (bold, grey) repeats on each new page. */
function writeTable(
  doc: Doc,
  columns: readonly { share: number }[],
  rows: readonly (readonly string[])[],
  options: { header: readonly string[] | null; boldFirst: boolean },
): void {
  const left = doc.page.margins.left;
  const total = columns.reduce((sum, c) => sum + c.share, 0);
  const widths = columns.map((c) => (contentWidth(doc) * c.share) / total);
  doc.fontSize(SIZE.cell);
  const fontOf = (column: number, header: boolean) =>
    header || (options.boldFirst && column === 0) ? "bold" : "regular";
  const heightOf = (cells: readonly string[], header: boolean) =>
    Math.max(
      ...cells.map((cell, i) => {
        doc.font(fontOf(i, header));
        return doc.heightOfString(cell || " ", { width: widths[i]! - 2 * CELL_PAD });
      }),
    ) +
    2 * CELL_PAD;
  const drawRow = (cells: readonly string[], header: boolean) => {
    const height = heightOf(cells, header);
    const top = doc.y;
    let x = left;
    cells.forEach((cell, i) => {
      const w = widths[i]!;
      if (header) doc.rect(x, top, w, height).fillAndStroke("#dddddd", "black").fillColor("black");
      else doc.lineWidth(0.5).rect(x, top, w, height).stroke();
      doc
        .font(fontOf(i, header))
        .text(cell, x + CELL_PAD, top + CELL_PAD, { width: w - 2 * CELL_PAD, lineBreak: true });
      x += w;
    });
    doc.x = left;
    doc.y = top + height;
  };
  doc.moveDown(0.2);
  if (options.header) {
    ensureRoom(doc, heightOf(options.header, true) + heightOf(rows[0] ?? [""], false));
    drawRow(options.header, true);
  }
  for (const row of rows) {
    const height = heightOf(row, false);
    if (doc.y + height > bottom(doc)) {
      doc.addPage();
      if (options.header) drawRow(options.header, true);
    }
    drawRow(row, false);
  }
  doc.moveDown(0.6);
}

/** "footer · n / N" at the foot of every page, written once every page is known. */
function numberPages(doc: Doc, footer: string): void {
  const range = doc.bufferedPageRange();
  for (let i = 0; i < range.count; i++) {
    doc.switchToPage(range.start + i);
    const left = doc.page.margins.left;
    const width = contentWidth(doc);
    // Below the bottom margin: lift it while writing, so pdfkit does not start a page.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = doc.page.height - MARGIN - FOOTER_GAP / 2;
    doc
      .lineWidth(0.5)
      .moveTo(left, y - 4)
      .lineTo(left + width, y - 4)
      .stroke();
    doc.font("regular").fontSize(SIZE.footer);
    doc.text(footer, left, y, { width: width - 50, lineBreak: true });
    doc.text(`${i + 1} / ${range.count}`, left + width - 50, y, { width: 50, align: "right" });
    doc.page.margins.bottom = margin;
  }
}

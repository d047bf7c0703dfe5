/**
 * A PDF read back as a reader's tools see it, with Debian's poppler-utils: its text (pdftotext
 * -layout), its pages and page size (pdfinfo), and a page rendered to PNG (pdftoppm) with how much
 * of it is ink.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

export function pdfText(file: string): string {
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
}

export function pdfInfo(file: string): { pages: number; pageSize: string } {
  const out = execFileSync("pdfinfo", [file], { encoding: "utf8" });
  return {
    pages: Number(/^Pages:\s+(\d+)/m.exec(out)?.[1]),
    pageSize: /^Page size:\s+(.+)$/m.exec(out)?.[1]?.trim() ?? "",
  };
}

/**
 * Renders page 1 to `<prefix>.png` (what a person would look at) and, in grey, counts the share of
 * pixels that are not white: 0 is a blank page.
 */
export function renderFirstPage(file: string, prefix: string): { png: string; inkShare: number } {
  execFileSync("pdftoppm", ["-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", file, prefix]);
  execFileSync("pdftoppm", [
    "-gray",
    "-r",
    "30",
    "-f",
    "1",
    "-l",
    "1",
    "-singlefile",
    file,
    `${prefix}-grey`,
  ]);
  const pgm = readFileSync(`${prefix}-grey.pgm`);
  // P5 header: "P5\n<w> <h>\n<max>\n", then one byte per pixel.
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString("latin1"))!;
  const pixels = pgm.subarray(header[0].length);
  let ink = 0;
  for (const p of pixels) if (p < 200) ink++;
  return { png: `${prefix}.png`, inkShare: ink / pixels.length };
}

/**
 * The verdicts for people: a table worst verdict first (then by line), each row's detail and next
 * step after it, the layout the file was read with, counts and totals. Worst-first needs the
 * whole batch before the first line, so rows are spooled as they are judged: per verdict, one
 * temporary file of table rows (tab-separated cells; every cell has been through terminalSafe,
 * which writes tabs and line breaks as visible escapes) and one of detail lines, ready to print;
 * in line order, since chunks come in file order. Column widths are kept as maxima. At the end
 * the table files are read back in verdict order and padded, the detail files copied, and all
 * deleted. Memory holds one chunk, whatever the batch's size.
 */
import { once } from "node:events";
import type { Writable } from "node:stream";
import { terminalSafe, UNSAFE_CLASS } from "../formats/terminal-text.ts";
import { KeptTexts } from "../formats/write/kept-texts.ts";
import { redactSecrets } from "../secrets.ts";
import { type SpoolPart, VerdictSpools } from "./report-text-spool.ts";
import { copySpool, writePaddedTable } from "./report-text-table.ts";
import type { BatchSummary, RowSink } from "./sink.ts";
import { formatMoney } from "./totals.ts";
import { type CheckedRow, VERDICTS } from "./verdicts.ts";

const HEADERS = ["VERDICT", "LINE", "TAX ID", "NAME", "ACCOUNT", "AMOUNT", "REFERENCE"] as const;
/** Longest cell shown in full; longer ones are shortened so a row stays on one line. */
const MAX_CELL = 60;
const FLUSH_AT = 64 * 1024;

/** Whitespace cell() flattens: anything but single spaces between words. */
const UNEVEN_SPACE = /[^\S ]| {2}|^ | $/;
/** The same or a character terminalSafe escapes: one search per cell rather than two. */
const UNEVEN_OR_UNSAFE = new RegExp(`${UNEVEN_SPACE.source}|${UNSAFE_CLASS}`);

function cell(text: string): string {
  // Most cells are plain already and skip the rewriting.
  const plain = !UNEVEN_OR_UNSAFE.test(text);
  const flat = plain ? text : terminalSafe(text.replace(/\s+/g, " ").trim());
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

/** The cells of repeating values (payee, name, account), and the verdicts' words as printed. */
interface RowTexts {
  cells: KeptTexts;
  said: KeptTexts;
}

/** The row's cells, written into `cells` (one array reused for every row of a batch). */
function tableCells(r: CheckedRow, cells: string[], texts: RowTexts): string[] {
  const payee = r.taxId ?? (r.taxBase ? `${r.taxBase} (by account)` : "");
  // The verdict and the line number are plain by construction.
  cells[0] = r.verdict;
  cells[1] = String(r.line);
  cells[2] = texts.cells.of(payee);
  cells[3] = texts.cells.of(r.registryName ?? r.name ?? "");
  cells[4] = texts.cells.of(r.account ?? r.bankAccount);
  cells[5] = cell(r.amount === null ? (r.amountRaw ?? "") : formatMoney(r.amount, r.currency ?? ""));
  cells[6] = cell(r.reference ?? "");
  return cells;
}

function saidText(text: string): string {
  return terminalSafe(redactSecrets(text));
}

function describeLayout(layout: BatchSummary["layout"]): string {
  const delimiter = layout.delimiter === "\t" ? "tab" : `"${layout.delimiter}"`;
  const columns = Object.entries(layout.columns)
    .map(([field, header]) => `${field} = "${header}"`)
    .join(", ");
  const ignored =
    layout.ignored.length > 0 ? `; not used: ${layout.ignored.map((h) => `"${h}"`).join(", ")}` : "";
  return terminalSafe(
    `read as ${layout.encoding}${layout.encodingDetected ? " (detected)" : ""}, separated by ${delimiter}; columns: ${columns}${ignored}`,
  );
}

export class TextSink implements RowSink {
  /** Per verdict: its table rows (tab-separated cells) and its detail lines, ready to print. */
  private readonly spools = new VerdictSpools();
  private readonly widths: number[] = HEADERS.map((h) => h.length);
  private readonly cells = new Array<string>(HEADERS.length);
  private readonly texts: RowTexts = { cells: new KeptTexts(cell), said: new KeptTexts(saidText) };
  private output = "";
  private details = false;

  constructor(private readonly out: Writable) {}

  async rows(rows: readonly CheckedRow[]): Promise<void> {
    const { cells, widths, spools, texts } = this;
    for (const r of rows) {
      tableCells(r, cells, texts);
      for (let i = 0; i < cells.length; i++) {
        const width = (cells[i] as string).length;
        if (width > (widths[i] as number)) widths[i] = width;
      }
      spools.cells(r.verdict, cells);
      if (r.detail === "" && r.nextStep === null) continue;
      let text = `line ${r.line}: ${texts.said.of(r.detail || r.verdict)}\n`;
      if (r.nextStep !== null) text += `  next step: ${texts.said.of(r.nextStep)}\n`;
      spools.text(r.verdict, "details", text);
      this.details = true;
    }
    await spools.flush();
  }

  private async print(line: string): Promise<void> {
    this.output += `${line}\n`;
    if (this.output.length >= FLUSH_AT) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.output === "") return;
    const text = this.output;
    this.output = "";
    if (!this.out.write(text)) await once(this.out, "drain");
  }

  /** The spooled files of one part, worst verdict first. */
  private parts(part: SpoolPart): string[] {
    return VERDICTS.filter((v) => this.spools.has(v, part)).map((v) => this.spools.path(v, part));
  }

  private tableLine(cells: readonly string[]): string {
    return cells
      .map((text, i) => (i === cells.length - 1 ? text : text.padEnd(this.widths[i]!)))
      .join("  ")
      .trimEnd();
  }

  async end(summary: BatchSummary): Promise<void> {
    try {
      await this.spools.close();
      await this.print(describeLayout(summary.layout));
      await this.print(this.tableLine(HEADERS));
      await this.flush();
      for (const file of this.parts("table")) await writePaddedTable(file, this.widths, this.out);
      await this.print("");
      await this.flush();
      // Detail lines were formatted when spooled: copied as they are.
      for (const file of this.parts("details")) {
        await copySpool(file, this.out);
      }
      if (this.details) await this.print("");
      for (const line of summaryLines(summary)) await this.print(line);
      await this.flush();
    } finally {
      await this.abort();
    }
  }

  async abort(): Promise<void> {
    await this.spools.remove();
  }
}

/** Counts, totals per currency, what --online asked, the recorded batch, and the decision. */
export function summaryLines(summary: BatchSummary): string[] {
  const counts = VERDICTS.filter((v) => summary.counts[v]).map((v) => `${summary.counts[v]} ${v}`);
  const lines = [`${summary.rowCount} row(s): ${counts.join(", ")}`];
  for (const t of summary.totals) {
    const held = t.heldRows > 0 ? `; held: ${formatMoney(t.held, t.currency)} in ${t.heldRows} row(s)` : "";
    lines.push(`total ${formatMoney(t.amount, t.currency)} in ${t.rows} row(s)${held}`);
  }
  if (summary.online) {
    lines.push(
      `online: ${summary.online.asked} search request(s)` +
        (summary.online.notChecked > 0 ? `, ${summary.online.notChecked} account(s) not checked` : ""),
    );
  }
  if (summary.batchId) lines.push(`recorded as batch ${summary.batchId}`);
  lines.push(
    summary.heldCount > 0
      ? `HOLD: ${summary.heldCount} payment(s) flagged (account changes within ${summary.holdDays} days count)`
      : "every payment passed",
  );
  return lines;
}

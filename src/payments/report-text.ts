/**
 * The verdicts for people: a table worst verdict first (then by line), each row's detail and next
 * step after it, the layout the file was read with, counts and totals. Worst-first needs the
 * whole batch before the first line, so rows are spooled as they are judged: one temporary file
 * per verdict (already in line order, since chunks come in file order), the column widths kept as
 * maxima. At the end the files are read back in verdict order, once for the table and once for
 * the details, and deleted. Memory holds one chunk, whatever the batch's size.
 */
import { once } from "node:events";
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import type { Writable } from "node:stream";
import { terminalSafe } from "../feed/terminal-text.ts";
import { redactSecrets } from "../secrets.ts";
import type { BatchSummary, RowSink } from "./sink.ts";
import { formatMoney } from "./totals.ts";
import { type CheckedRow, VERDICTS, type Verdict } from "./verdicts.ts";

const HEADERS = ["VERDICT", "LINE", "TAX ID", "NAME", "ACCOUNT", "AMOUNT", "REFERENCE"] as const;
/** Longest cell shown in full; longer ones are shortened so a row stays on one line. */
const MAX_CELL = 60;
const FLUSH_AT = 64 * 1024;

/**
 * A spooled row: the table's cells, then the detail line and the next step ("" when none), one
 * line of tab-separated fields. Every field has been through terminalSafe, which writes tabs and
 * line breaks as visible escapes, so neither occurs inside a field.
 */
type Spooled = string[];

function cell(text: string): string {
  const flat = terminalSafe(text.replace(/\s+/g, " ").trim());
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}

function tableCells(r: CheckedRow): string[] {
  const payee = r.taxId ?? (r.taxBase ? `${r.taxBase} (by account)` : "");
  return [
    r.verdict,
    String(r.line),
    payee,
    r.registryName ?? r.name ?? "",
    r.account ?? r.bankAccount,
    r.amount === null ? (r.amountRaw ?? "") : formatMoney(r.amount, r.currency ?? ""),
    r.reference ?? "",
  ].map(cell);
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
  private dir: string | null = null;
  private readonly spools = new Map<Verdict, WriteStream>();
  private readonly widths: number[] = HEADERS.map((h) => h.length);
  private output = "";

  constructor(private readonly out: Writable) {}

  private async spool(verdict: Verdict): Promise<WriteStream> {
    this.dir ??= await mkdtemp(path.join(tmpdir(), "regwatch-payments-"));
    let stream = this.spools.get(verdict);
    if (!stream) {
      stream = createWriteStream(path.join(this.dir, `${verdict}.jsonl`));
      this.spools.set(verdict, stream);
    }
    return stream;
  }

  async rows(rows: readonly CheckedRow[]): Promise<void> {
    const buffers = new Map<Verdict, string>();
    for (const r of rows) {
      const cells = tableCells(r);
      cells.forEach((c, i) => {
        if (c.length > this.widths[i]!) this.widths[i] = c.length;
      });
      const detail =
        r.detail !== "" || r.nextStep !== null ? terminalSafe(redactSecrets(r.detail || r.verdict)) : "";
      const next = r.nextStep === null ? "" : terminalSafe(redactSecrets(r.nextStep));
      const line = `${cells.join("\t")}\t${detail}\t${next}\n`;
      buffers.set(r.verdict, (buffers.get(r.verdict) ?? "") + line);
    }
    for (const [verdict, text] of buffers) {
      const stream = await this.spool(verdict);
      if (!stream.write(text)) await once(stream, "drain");
    }
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

  /** Each spooled row of every verdict, worst verdict first, in line order within one. */
  private async *spooled(): AsyncGenerator<Spooled> {
    for (const verdict of VERDICTS) {
      if (!this.spools.has(verdict) || !this.dir) continue;
      const lines = createInterface({
        input: createReadStream(path.join(this.dir, `${verdict}.jsonl`)),
        crlfDelay: Number.POSITIVE_INFINITY,
      });
      for await (const line of lines) yield line.split("\t");
    }
  }

  private tableLine(cells: readonly string[]): string {
    return cells
      .map((text, i) => (i === cells.length - 1 ? text : text.padEnd(this.widths[i]!)))
      .join("  ")
      .trimEnd();
  }

  async end(summary: BatchSummary): Promise<void> {
    try {
      for (const stream of this.spools.values()) {
        stream.end();
        await once(stream, "close");
      }
      await this.print(describeLayout(summary.layout));
      await this.print(this.tableLine(HEADERS));
      for await (const row of this.spooled())
        await this.print(this.tableLine(row.slice(0, HEADERS.length) as string[]));
      await this.print("");
      let details = 0;
      for await (const row of this.spooled()) {
        const [detail = "", next = ""] = row.slice(HEADERS.length);
        if (detail === "" && next === "") continue;
        details++;
        await this.print(`line ${row[1]}: ${detail}`);
        if (next !== "") await this.print(`  next step: ${next}`);
      }
      if (details > 0) await this.print("");
      for (const line of summaryLines(summary)) await this.print(line);
      await this.flush();
    } finally {
      await this.abort();
    }
  }

  async abort(): Promise<void> {
    for (const stream of this.spools.values()) stream.destroy();
    this.spools.clear();
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
    this.dir = null;
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

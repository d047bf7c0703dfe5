/**
 * The verdicts as one JSON document, written as a stream: the opening fields, then each row as
 * it is judged (one per line), then counts, totals and the rest once the batch is done. The
 * document is valid JSON whatever the size; nothing of it is held in memory. JSON is data for
 * programs, so the values are exact (no spreadsheet neutralising; a consumer that writes them
 * to a spreadsheet uses src/feed/export/).
 */
import { once } from "node:events";
import type { Writable } from "node:stream";
import { writeUtf8 } from "./read/utf8-bytes.ts";
import { jsonLayout, jsonRowText, jsonTotals } from "./report-rows.ts";
import type { BatchSummary, RowSink } from "./sink.ts";
import type { CheckedRow } from "./verdicts.ts";

/** Bytes gathered before they are written out. */
const PIECE = 64 * 1024;

export class JsonSink implements RowSink {
  private started = false;
  private first = true;
  /**
   * The rows' UTF-8, each row encoded into it as it is made: no string of a whole piece is built
   * by concatenation and then turned into bytes by the stream (the --json output's main cost
   * after the rows' own text). Handed to the stream when full, and a new one started.
   */
  private buffer = Buffer.allocUnsafe(2 * PIECE);
  private used = 0;

  constructor(
    private readonly out: Writable,
    private readonly head: { today: string; holdDays: number },
  ) {}

  private async write(text: string): Promise<void> {
    if (!this.out.write(text)) await once(this.out, "drain");
  }

  private opening(): string {
    if (this.started) return "";
    this.started = true;
    return `{"checked_on":${JSON.stringify(this.head.today)},"hold_days":${this.head.holdDays},"rows":[`;
  }

  /** Appends `text` to the buffer; false when the stream asked to wait for what it was given. */
  private add(text: string): boolean {
    if (this.used + 3 * text.length > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * PIECE, this.used + 3 * text.length));
      this.buffer.copy(grown, 0, 0, this.used);
      this.buffer = grown;
    }
    this.used += writeUtf8(this.buffer, text, this.used);
    return this.used < PIECE || this.send();
  }

  private send(): boolean {
    if (this.used === 0) return true;
    const full = this.buffer.subarray(0, this.used);
    this.buffer = Buffer.allocUnsafe(2 * PIECE);
    this.used = 0;
    return this.out.write(full);
  }

  async rows(rows: readonly CheckedRow[]): Promise<void> {
    let full = !this.add(this.opening());
    for (const r of rows) {
      full = !this.add(`${this.first ? "\n" : ",\n"}${jsonRowText(r)}`) || full;
      this.first = false;
    }
    // What a chunk leaves in the buffer waits for the next one (or the end).
    if (full) await once(this.out, "drain");
  }

  async end(summary: BatchSummary): Promise<void> {
    const rest = {
      flagged: summary.heldCount > 0,
      row_count: summary.rowCount,
      held_count: summary.heldCount,
      counts: summary.counts,
      totals: jsonTotals(summary),
      layout: jsonLayout(summary.layout),
      online: summary.online && { asked: summary.online.asked, notChecked: summary.online.notChecked },
      batch_id: summary.batchId,
    };
    // The closing fields follow the rows: a reader streaming the rows sees them first.
    if (!this.send()) await once(this.out, "drain");
    await this.write(`${this.opening()}\n],${JSON.stringify(rest).slice(1)}\n`);
  }
}

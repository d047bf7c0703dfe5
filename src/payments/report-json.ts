/**
 * The verdicts as one JSON document, written as a stream: the opening fields, then each row as
 * it is judged (one per line), then counts, totals and the rest once the batch is done. The
 * document is valid JSON whatever the size; nothing of it is held in memory. JSON is data for
 * programs, so the values are exact (no spreadsheet neutralising; a consumer that writes them
 * to a spreadsheet uses src/feed/export/).
 */
import { once } from "node:events";
import type { Writable } from "node:stream";
import { JsonTexts, jsonLayout, jsonRowText, jsonTotals } from "./report-rows.ts";
import type { BatchSummary, RowSink } from "./sink.ts";
import type { CheckedRow } from "./verdicts.ts";

const PIECE = 32 * 1024;

export class JsonSink implements RowSink {
  private started = false;
  private first = true;
  private readonly texts = new JsonTexts();

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

  async rows(rows: readonly CheckedRow[]): Promise<void> {
    let text = this.opening();
    let full = false;
    for (const r of rows) {
      text += `${this.first ? "\n" : ",\n"}${jsonRowText(r, this.texts)}`;
      this.first = false;
      // Written in pieces: a chunk's text as one string would be a large object of V8's old
      // generation (over 64 Ki UTF-16 units), given back only by a full collection.
      if (text.length >= PIECE) {
        full = !this.out.write(text) || full;
        text = "";
      }
    }
    if (text !== "") full = !this.out.write(text) || full;
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
    await this.write(`${this.opening()}\n],${JSON.stringify(rest).slice(1)}\n`);
  }
}

/**
 * The rows a validation pass found good, kept in a temporary file so the check does not read and
 * decode the payment file a second time: one JSON array per row and line, its fields in
 * PaymentRow's order, followed by a comma (so a run of lines in brackets is one JSON array). JSON keeps every string exactly (a line break in a quoted field included)
 * and is parsed natively a whole piece at a time, which costs far less than decoding, splitting
 * and reading the original records again.
 */
import { once } from "node:events";
import { createReadStream, createWriteStream, rmSync, type WriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PaymentRow } from "../batch-row.ts";

type SpooledRow = [
  number,
  string | null,
  string,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
  string | null,
];

/** Spool folders not yet removed, so a process that exits early still leaves none behind. */
const live = new Set<string>();
let exitHooked = false;

function removeOnExit(dir: string): void {
  live.add(dir);
  if (exitHooked) return;
  exitHooked = true;
  process.once("exit", () => {
    for (const left of live) rmSync(left, { recursive: true, force: true });
  });
}

async function removeDir(dir: string): Promise<void> {
  live.delete(dir);
  await rm(dir, { recursive: true, force: true });
}

/** One row as its spool line: `[...],` and a line feed. */
export function spoolLine(r: PaymentRow): string {
  const fields: SpooledRow = [
    r.line,
    r.taxId,
    r.bankAccount,
    r.amount,
    r.amountRaw,
    r.amountProblem,
    r.currency,
    r.reference,
    r.name,
  ];
  return `${JSON.stringify(fields)},\n`;
}

/** The rows of `json`: complete spool lines, the last one's comma dropped, in brackets. */
export function parseSpoolRows(json: string): PaymentRow[] {
  const parsed = JSON.parse(json) as SpooledRow[];
  const rows: PaymentRow[] = new Array(parsed.length);
  for (let i = 0; i < parsed.length; i++) {
    const f = parsed[i] as SpooledRow;
    rows[i] = {
      line: f[0],
      taxId: f[1],
      bankAccount: f[2],
      amount: f[3],
      amountRaw: f[4],
      amountProblem: f[5],
      currency: f[6],
      reference: f[7],
      name: f[8],
    };
  }
  return rows;
}

export class RowSpool {
  private stream: WriteStream | null = null;
  private failed: Error | null = null;

  private constructor(private readonly dir: string) {}

  static async create(): Promise<RowSpool> {
    const dir = await mkdtemp(path.join(tmpdir(), "regwatch-rows-"));
    removeOnExit(dir);
    return new RowSpool(dir);
  }

  private get file(): string {
    return path.join(this.dir, "rows.jsonl");
  }

  /** Appends spool lines (spoolLine's output, concatenated). */
  async write(text: string): Promise<void> {
    if (text === "") return;
    if (!this.stream) {
      this.stream = createWriteStream(this.file);
      this.stream.on("error", (error) => {
        this.failed ??= error;
      });
    }
    if (this.failed) throw this.failed;
    if (!this.stream.write(text)) await once(this.stream, "drain");
  }

  /** Finishes writing; a write that failed (a full disk) is thrown here. */
  async close(): Promise<void> {
    if (this.stream && !this.stream.closed) {
      this.stream.end();
      await once(this.stream, "close");
    }
    if (this.failed) throw this.failed;
  }

  async discard(): Promise<void> {
    this.stream?.destroy();
    await removeDir(this.dir);
  }

  /** The spooled rows `size` at a time, once; the spool is removed when they end or the reader stops. */
  async *chunks(size: number): AsyncGenerator<PaymentRow[]> {
    try {
      let chunk: PaymentRow[] = [];
      let carry = "";
      for await (const piece of createReadStream(this.file, { encoding: "utf8" })) {
        // JSON writes a line break inside a string as an escape, so "\n" only ever ends a row.
        const text = piece as string;
        const end = text.lastIndexOf("\n");
        if (end < 0) {
          carry += text;
          continue;
        }
        // The rows up to that line feed, without the comma before it.
        const json = end === 0 ? `[${carry.slice(0, -1)}]` : `[${carry}${text.slice(0, end - 1)}]`;
        carry = text.slice(end + 1);
        for (const row of parseSpoolRows(json)) {
          chunk.push(row);
          if (chunk.length >= size) {
            yield chunk;
            chunk = [];
          }
        }
      }
      if (carry !== "") throw new Error("the spool of checked rows ends inside a row");
      if (chunk.length > 0) yield chunk;
    } finally {
      await removeDir(this.dir);
    }
  }
}

/**
 * The text output's spooling (no database): rows arriving chunk by chunk come out worst verdict
 * first and in line order within a verdict, file text cannot forge a line, and the temporary
 * files are gone afterwards.
 */
import { readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { JsonSink } from "../../src/payments/report-json.ts";
import { TextSink } from "../../src/payments/report-text.ts";
import type { BatchSummary } from "../../src/payments/sink.ts";
import type { CheckedRow, Verdict } from "../../src/payments/verdicts.ts";

function row(line: number, verdict: Verdict, extra: Partial<CheckedRow> = {}): CheckedRow {
  return {
    line,
    taxId: "12345676",
    bankAccount: "11773016-11111018",
    amount: "1000",
    amountRaw: "1 000",
    amountProblem: null,
    currency: "HUF",
    reference: `INV-${line}`,
    name: null,
    verdict,
    detail: verdict === "ok" ? "" : `why ${line}`,
    detailSaid: [],
    nextStepSaid: null,
    nextStep: verdict === "ok" || verdict === "not_watched" ? null : `do ${line}`,
    taxBase: "12345676",
    payeeFoundBy: "tax_id",
    account: "11773016-11111018-00000000",
    registryName: "Supplier Kft.",
    verifiedBy: null,
    verifiedOn: null,
    ...extra,
  };
}

const summary: BatchSummary = {
  rowCount: 5,
  counts: { invalid_tax_id: 1, account_not_registered: 2, ok: 2 },
  totals: [{ currency: "HUF", amount: "5000.00", rows: 5, held: "3000.00", heldRows: 3, decimals: 2 }],
  heldCount: 3,
  layout: {
    encoding: "windows-1250",
    encodingDetected: true,
    encodingNote: null,
    delimiter: ";",
    headerLine: 1,
    columns: { bank_account: "Számlaszám", amount: "Összeg" },
    ignored: ["Megjegyzés"],
  },
  today: "2026-11-25",
  holdDays: 30,
  online: null,
  batchId: null,
};

async function collect(write: (out: PassThrough) => Promise<void>): Promise<string> {
  const out = new PassThrough();
  const parts: Buffer[] = [];
  out.on("data", (b: Buffer) => parts.push(b));
  await write(out);
  return Buffer.concat(parts).toString("utf8");
}

const spools = async () => (await readdir(tmpdir())).filter((n) => n.startsWith("regwatch-payments-"));

describe("TextSink", () => {
  it("orders chunks worst first, keeps line order, escapes file text, removes its spool", async () => {
    const before = await spools();
    const text = await collect(async (out) => {
      const sink = new TextSink(out);
      await sink.rows([row(2, "ok"), row(3, "account_not_registered"), row(4, "ok")]);
      await sink.rows([
        row(5, "account_not_registered", {
          reference: "x\nline 9: forged",
          name: "\u001b[31mred",
          registryName: null,
        }),
        row(6, "invalid_tax_id", { taxId: "1234", taxBase: null }),
      ]);
      await sink.end(summary);
    });
    const lines = text.split("\n");
    expect(lines[0]).toBe(
      'read as windows-1250 (detected), separated by ";"; columns: bank_account = "Számlaszám", amount = "Összeg"; not used: "Megjegyzés"',
    );
    expect(lines[1]).toMatch(/^VERDICT\s+LINE\s+TAX ID\s+NAME\s+ACCOUNT\s+AMOUNT\s+REFERENCE$/);
    expect(lines.slice(2, 7).map((l) => l.split(/\s+/).slice(0, 2).join(" "))).toEqual([
      "invalid_tax_id 6",
      "account_not_registered 3",
      "account_not_registered 5",
      "ok 2",
      "ok 4",
    ]);
    expect(lines[2]).toContain("1 000.00 HUF");
    // A line break in a cell is flattened, an escape sequence shown, never run.
    expect(lines[4]).toMatch(/x line 9: forged$/);
    expect(lines[4]).toContain("\\e[31mred");
    expect(lines.slice(7)).toEqual([
      "",
      "line 6: why 6",
      "  next step: do 6",
      "line 3: why 3",
      "  next step: do 3",
      "line 5: why 5",
      "  next step: do 5",
      "",
      "5 row(s): 1 invalid_tax_id, 2 account_not_registered, 2 ok",
      "total 5 000.00 HUF in 5 row(s); held: 3 000.00 HUF in 3 row(s)",
      "HOLD: 3 payment(s) flagged (account changes within 30 days count)",
      "",
    ]);
    expect(await spools()).toEqual(before);
  });

  it("aborted, it leaves no spool behind", async () => {
    const before = await spools();
    const sink = new TextSink(new PassThrough());
    await sink.rows([row(2, "ok")]);
    expect((await spools()).length).toBe(before.length + 1);
    await sink.abort();
    expect(await spools()).toEqual(before);
  });
});

describe("JsonSink", () => {
  it("writes one valid document across chunks, also with no rows", async () => {
    const text = await collect(async (out) => {
      const sink = new JsonSink(out, { today: "2026-11-25", holdDays: 30 });
      await sink.rows([row(2, "ok")]);
      await sink.rows([]);
      await sink.rows([row(3, "account_not_registered", { reference: '"quoted"' })]);
      await sink.end(summary);
    });
    const doc = JSON.parse(text) as { rows: Array<{ line: number; reference: string }>; totals: unknown[] };
    expect(doc.rows.map((r) => [r.line, r.reference])).toEqual([
      [2, "INV-2"],
      [3, '"quoted"'],
    ]);
    expect(doc.totals).toEqual([
      { currency: "HUF", amount: "5000.00", rows: 5, held: "3000.00", held_rows: 3 },
    ]);
    const empty = await collect(async (out) => {
      await new JsonSink(out, { today: "2026-11-25", holdDays: 30 }).end({ ...summary, rowCount: 0 });
    });
    expect((JSON.parse(empty) as { rows: unknown[] }).rows).toEqual([]);
  });
});

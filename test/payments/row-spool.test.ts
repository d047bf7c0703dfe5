import { describe, expect, it } from "vitest";
import type { PaymentRow } from "../../src/formats/batch-row.ts";
import { MAX_CHUNK_TEXT } from "../../src/formats/read/limits.ts";
import { detachedRow, RowSpool } from "../../src/formats/read/row-spool.ts";

const row = (line: number, over: Partial<PaymentRow> = {}): PaymentRow => ({
  line,
  taxId: "12345676-2-41",
  bankAccount: "11773016-00000000-05000115",
  amount: "-1250000.5",
  amountRaw: "-1 250 000,50 Ft",
  amountProblem: null,
  currency: "HUF",
  reference: "számla\n2. sor",
  name: "Őrségi Űrtechnika Kft. 😀",
  ...over,
});

describe("the spool of validated rows", () => {
  it("gives back every row exactly, nulls and empty strings apart, in chunks", async () => {
    const rows: PaymentRow[] = [];
    for (let i = 0; i < 5000; i++) {
      rows.push(
        row(2 + i * 3, {
          taxId: i % 3 === 0 ? null : "12345676",
          amountRaw: i % 5 === 0 ? "" : `${i},00`,
          amountProblem: i % 7 === 0 ? `amount "${"x".repeat(i % 50)}" is no number` : null,
          reference: i % 11 === 0 ? "é".repeat(30_000) : `r${i}`,
          name: i % 2 === 0 ? null : 'Kővári; "Ügyvédi"\tIroda\r\n',
        }),
      );
    }
    rows.push(row(2 ** 40));
    const spool = await RowSpool.create();
    for (const [i, r] of rows.entries()) {
      spool.add(r);
      if (i % 100 === 0) await spool.flush();
    }
    await spool.close();
    const back: PaymentRow[] = [];
    const sizes: number[] = [];
    for await (const chunk of spool.chunks(1000)) {
      sizes.push(chunk.length);
      back.push(...chunk);
    }
    // Every 11th row holds 60 KB of text: chunks end by their text, long before 1,000 rows.
    expect(sizes.reduce((a, b) => a + b)).toBe(5001);
    let at = 0;
    for (const size of sizes) {
      const chunk = rows.slice(at, at + size);
      const before = chunk.slice(0, -1).reduce((sum, r) => sum + Buffer.byteLength(r.reference ?? ""), 0);
      expect(before).toBeLessThan(MAX_CHUNK_TEXT);
      at += size;
    }
    expect(Math.max(...sizes)).toBeLessThan(400);
    expect(back).toEqual(rows);
  });

  it("gives narrow rows back 1,000 at a time", async () => {
    const spool = await RowSpool.create();
    for (let i = 0; i < 2500; i++) spool.add(row(2 + i));
    await spool.close();
    const sizes: number[] = [];
    for await (const chunk of spool.chunks(1000)) sizes.push(chunk.length);
    expect(sizes).toEqual([1000, 1000, 500]);
  });

  it("copies a row with strings of its own", () => {
    const r = row(7, { taxId: null, amount: null, amountRaw: "", reference: null });
    expect(detachedRow(r)).toEqual(r);
  });
});

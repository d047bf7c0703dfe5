/**
 * A recorded payment batch is all or nothing: a file the reader refuses (a NUL character) starts
 * no batch and `payments check` exits 64 naming the line; a check that fails after rows were
 * recorded (here a sink that fails) leaves no batch row, finished or not.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkBatch, type RowSink } from "../../src/payments/pipeline.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const ACCOUNT = "11773016-11111018-00000000";

let t: TestDatabase;
let dir: string;
beforeAll(async () => {
  t = await createTestDatabase();
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-refusals-"));
});
afterAll(async () => {
  await t?.drop();
  await rm(dir, { recursive: true, force: true });
});

const batchRows = async () =>
  (await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.payment_batches`)[0]!.n;

describe("a recorded batch", () => {
  it("with a NUL in a cell: `payments check --record` exits 64 naming the line, and nothing is recorded", async () => {
    const file = path.join(dir, "nul.csv");
    await writeFile(file, `bank_account;amount;reference\n${ACCOUNT};100;R1\n${ACCOUNT};200;IN\0V-2\n`);
    const result = await runCli(["payments", "check", file, "--record"], { DATABASE_URL: t.url });
    expect(result.stderr).toContain("line 3: line 3 holds a NUL character");
    expect(result.code).toBe(64);
    expect(result.stderr).not.toMatch(/invalid byte sequence|0x00/);
    expect(await batchRows()).toBe(0);
  });

  it("is rolled back whole when the check fails after rows were recorded", async () => {
    const file = path.join(dir, "many.csv");
    const lines = Array.from({ length: 30 }, (_, i) => `${ACCOUNT};${i + 1};R${i}`);
    await writeFile(file, `bank_account;amount;reference\n${lines.join("\n")}\n`);
    let chunks = 0;
    const failing: RowSink = {
      async rows() {
        // The first chunk is recorded; the second one's sink fails.
        if (++chunks === 2) throw new Error("the report's disk is full");
      },
      async end() {},
    };
    await expect(
      checkBatch(
        t.db,
        file,
        {
          read: { currency: "HUF" },
          holdDays: 30,
          today: "2026-11-27",
          recheckDays: 30,
          timeZone: "Europe/Budapest",
          online: null,
          record: { by: "tester", source: "cli", fileName: "many.csv" },
          chunkSize: 10,
        },
        [failing],
      ),
    ).rejects.toThrow("the report's disk is full");
    expect(chunks).toBe(2);
    expect(await batchRows()).toBe(0);
    const checks = await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.payment_checks`;
    expect(checks[0]!.n).toBe(0);
  });
});

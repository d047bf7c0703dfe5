/**
 * 20,000 payments through each output of `payments check` against a real database: every row
 * ends with its verdict (counted in the JSON rows, the CSV lines, the text table and the
 * workbook's rows), the exit code says some are held, and the JSON document stays valid. The
 * output goes to a file, not through the test's memory. Twenty thousand rows cross the reader's
 * chunks and the spool many times over; the 200,000-row batch, with its speed and memory, is the
 * benchmark's (bench/payments.ts), not asserted here.
 */
import { spawn } from "node:child_process";
import { createReadStream } from "node:fs";
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectedVerdict, seedPayees, writeLargeBatch } from "../../bench/payments-batch.ts";
import { severity, type Verdict } from "../../src/payments/verdicts.ts";
import { childBaseEnv } from "../helpers/child-env.ts";
import { BIN } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { today } from "./fixtures.ts";

const ROWS = 20_000;
const PAYEES = 2_000;
const TIMEOUT = 900_000;

let test: TestDatabase;
let dir: string;
let file: string;

/** Runs the command with its output in a file; returns the exit code, stderr and the file. */
async function check(
  args: string[],
  name: string,
): Promise<{ code: number | null; stderr: string; out: string }> {
  const out = path.join(dir, name);
  const handle = await open(out, "w");
  const child = spawn(process.execPath, [BIN, "payments", "check", file, ...args], {
    env: {
      ...childBaseEnv(),
      DATABASE_URL: test.url,
      REGWATCH_LOG_LEVEL: "warn",
    },
    stdio: ["ignore", handle.fd, "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (b: Buffer) => {
    stderr += b.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  await handle.close();
  return { code, stderr, out };
}

function lines(file: string) {
  return createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
}

const expected = (line: number) => expectedVerdict(line - 2, PAYEES);

/** How many rows of the batch end with each verdict, in the order the summary names them. */
const VERDICT_ORDER = [
  "account_not_registered",
  "name_mismatch",
  "invalid_amount",
  "account_recently_changed",
  "not_watched",
  "ok",
] as const;
function expectedCounts(): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(VERDICT_ORDER.map((v) => [v, 0]));
  for (let i = 0; i < ROWS; i++) counts[expectedVerdict(i, PAYEES)]!++;
  return counts;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-large-"));
  test = await createTestDatabase();
  const payees = await seedPayees(test.db.sql, PAYEES, today);
  file = path.join(dir, "batch.csv");
  await writeLargeBatch(file, payees, ROWS);
}, 120_000);

afterAll(async () => {
  await test?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe(`payments check on ${ROWS.toLocaleString("en")} rows`, () => {
  it(
    "--json: one valid document with every row's verdict",
    async () => {
      const run = await check(["--json"], "out.json");
      expect(run.stderr).toBe("");
      expect(run.code).toBe(2);
      let head = "";
      let tail = "";
      let rows = 0;
      for await (const line of lines(run.out)) {
        if (line.startsWith('{"line":')) {
          const row = JSON.parse(line.replace(/,$/, "")) as { line: number; verdict: string };
          expect(row.line).toBe(rows + 2);
          if (row.verdict !== expected(row.line))
            expect([row.line, row.verdict]).toEqual([row.line, expected(row.line)]);
          rows++;
        } else if (rows === 0) head += line;
        else tail += line;
      }
      expect(rows).toBe(ROWS);
      // The framing around the rows is JSON too: the opening fields and the closing ones.
      const document = JSON.parse(`${head}${tail}`) as { rows: unknown[]; row_count: number; counts: object };
      expect(document.rows).toEqual([]);
      expect(document.row_count).toBe(ROWS);
      expect(document.counts).toEqual(expectedCounts());
    },
    TIMEOUT,
  );

  it(
    "--csv: a line per row with its verdict, formula cells neutralised",
    async () => {
      const run = await check(["--csv"], "out.csv");
      expect(run.stderr).toBe("");
      expect(run.code).toBe(2);
      let n = 0;
      let formulas = 0;
      for await (const line of lines(run.out)) {
        n++;
        if (n === 1) continue;
        const [lineNo, verdict] = line.split(",", 2);
        if (Number(lineNo) !== n || verdict !== expected(n))
          expect([lineNo, verdict]).toEqual([String(n), expected(n)]);
        if (line.includes("HYPERLINK")) {
          formulas++;
          expect(line).toContain(`"'=HYPERLINK(`);
        }
      }
      expect(n).toBe(ROWS + 1);
      expect(formulas).toBe(ROWS / 100);
    },
    TIMEOUT,
  );

  it(
    "text: every row in the table, worst verdict first, then the summary",
    async () => {
      const run = await check([], "out.txt");
      expect(run.stderr).toBe("");
      expect(run.code).toBe(2);
      let section: "layout" | "table" | "rest" = "layout";
      let rows = 0;
      let last = -1;
      let summary = "";
      for await (const line of lines(run.out)) {
        if (section === "layout") {
          expect(line).toMatch(/^read as windows-1250 \(detected\), separated by ";"/);
          section = "table";
        } else if (section === "table") {
          if (line === "") section = "rest";
          else if (!line.startsWith("VERDICT")) {
            const rank = severity(line.slice(0, line.indexOf(" ")) as Verdict);
            expect(rank).toBeGreaterThanOrEqual(last);
            last = rank;
            rows++;
          }
        } else if (line.startsWith(`${ROWS} row(s)`)) summary = line;
      }
      expect(rows).toBe(ROWS);
      const counts = expectedCounts();
      expect(summary).toBe(`${ROWS} row(s): ${VERDICT_ORDER.map((v) => `${counts[v]} ${v}`).join(", ")}`);
    },
    TIMEOUT,
  );

  it(
    "--xlsx: a workbook row per payment",
    async () => {
      const workbook = path.join(dir, "out.xlsx");
      const run = await check(["--xlsx", workbook, "--csv"], "beside.csv");
      expect(run.code).toBe(2);
      const reader = new ExcelJS.stream.xlsx.WorkbookReader(workbook, {});
      const counts: Record<string, number> = {};
      for await (const sheet of reader) {
        let n = 0;
        for await (const row of sheet) {
          n++;
          if (n > 1 && counts.payments === undefined) {
            const verdict = row.getCell(2).value as string;
            if (verdict !== expected(n)) expect([n, verdict]).toEqual([n, expected(n)]);
          }
        }
        counts[counts.payments === undefined ? "payments" : "totals"] = n;
      }
      expect(counts).toEqual({ payments: ROWS + 1, totals: 2 });
    },
    TIMEOUT,
  );
});

/**
 * Payment check throughput and memory (issue 27): 200,000 rows of a Windows-1250 bank export
 * (bench/payments-batch.ts) against 2,000 companies, checked by the published command
 * (bin/regwatch.js, built first, started with its own Node flags) once per output: --json,
 * --csv, the text table, and --xlsx beside the text. Each run is a process of its own, its
 * output going to a file; rows per second are the file's rows over the run's wall time (start
 * of Node included), the peak is the process's maximum resident set (GNU time's %M, else the
 * kernel's VmHWM read while it runs). `payments_rows_per_s` is the slowest and
 * `payments_peak_rss_mb` the largest of json, csv and text (the outputs the targets name);
 * the workbook run has figures of its own.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { localDateTime } from "../src/dates.ts";
import { openDatabase } from "../src/db/connect.ts";
import { seedPayees, writeLargeBatch } from "./payments-batch.ts";
import { binNodeStart, buildProduct, PRODUCT_BIN } from "./product-bin.ts";

export interface PaymentsBench {
  rows: number;
  payees: number;
  databaseUrl: string;
}

const GNU_TIME = "/usr/bin/time";

export interface Run {
  seconds: number;
  peakMb: number;
  code: number | null;
}

/** Peak resident set of a running process so far, from /proc (Linux); 0 where there is none. */
async function highWaterMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : 0;
}

/** `regwatch payments check ARGS` as a user runs it, its output to `outFile`; it must exit 2 (some held). */
export async function runCheck(args: string[], outFile: string, env: Record<string, string>): Promise<Run> {
  const out = await open(outFile, "w");
  const timed = existsSync(GNU_TIME);
  const checkArgs = ["payments", "check", ...args];
  const start = binNodeStart(checkArgs);
  const node = [...start.flags, PRODUCT_BIN, ...checkArgs];
  const [command, argv] = timed
    ? [GNU_TIME, ["-f", "peak_kb %M", process.execPath, ...node]]
    : [process.execPath, node];
  const started = performance.now();
  const child = spawn(command, argv, {
    env: { ...process.env, ...start.env, ...env },
    stdio: ["ignore", out.fd, "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (b: Buffer) => {
    stderr += b.toString();
  });
  let polled = 0;
  const poll = timed
    ? null
    : setInterval(() => {
        void highWaterMb(child.pid!).then((mb) => {
          polled = Math.max(polled, mb);
        });
      }, 20);
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const seconds = (performance.now() - started) / 1000;
  if (poll) clearInterval(poll);
  await out.close();
  const peakKb = /peak_kb (\d+)/.exec(stderr)?.[1];
  if (code !== 2)
    throw new Error(`payments check ${args.join(" ")} exited ${code}: ${stderr.slice(0, 2000)}`);
  return { seconds, peakMb: peakKb ? Number(peakKb) / 1024 : polled, code };
}

export async function paymentsThroughput(p: PaymentsBench): Promise<Record<string, number>> {
  buildProduct();
  const dir = await mkdtemp(path.join(tmpdir(), "regwatch-bench-payments-"));
  const db = await openDatabase({ databaseUrl: p.databaseUrl, dataDir: "" }, { max: 2 });
  try {
    const today = localDateTime(new Date(), "Europe/Budapest").date;
    const payees = await seedPayees(db.sql, p.payees, today);
    const file = path.join(dir, "batch.csv");
    await writeLargeBatch(file, payees, p.rows);
    const env = { DATABASE_URL: p.databaseUrl, REGWATCH_LOG_LEVEL: "warn" };
    const runs: Record<string, Run> = {};
    for (const [name, args] of [
      ["json", ["--json"]],
      ["csv", ["--csv"]],
      ["text", []],
      ["xlsx", ["--xlsx", path.join(dir, "out.xlsx")]],
    ] as const) {
      runs[name] = await runCheck([file, ...args], path.join(dir, `out.${name}`), env);
    }
    const perSecond = (r: Run) => Math.round(p.rows / r.seconds);
    const mb = (r: Run) => Math.round(r.peakMb * 10) / 10;
    const streamed = [runs.json!, runs.csv!, runs.text!];
    return {
      payments_rows: p.rows,
      payments_payees: p.payees,
      payments_rows_per_s: Math.min(...streamed.map(perSecond)),
      payments_peak_rss_mb: Math.max(...streamed.map(mb)),
      payments_rows_per_s_json: perSecond(runs.json!),
      payments_rows_per_s_csv: perSecond(runs.csv!),
      payments_rows_per_s_text: perSecond(runs.text!),
      payments_rows_per_s_xlsx: perSecond(runs.xlsx!),
      payments_peak_rss_mb_json: mb(runs.json!),
      payments_peak_rss_mb_csv: mb(runs.csv!),
      payments_peak_rss_mb_text: mb(runs.text!),
      payments_peak_rss_mb_xlsx: mb(runs.xlsx!),
    };
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

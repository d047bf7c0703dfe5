/**
 * Files scenario (issue 16): a sync from empty of many lists whose change files live on a second
 * origin with its own rate budget, run as the real CLI against the emulator in its own process.
 * Windows and files overlap, so the best possible wall time is set by the busier origin:
 * files_floor_s = max(API requests, file requests) / rate; files_floor_ratio = wall / floor
 * (target <= 1.10). Full size: 10 lists x 2,000 items x 8 weeks (about 10,800 files, 6 minutes
 * at 30/s); `--quick` runs 2 x 300 x 2 weeks. Run alone:
 *   DATABASE_URL=postgres://…/scratch node bin/run-ts.js bench/files-pipeline.ts [--quick]
 */
import { spawn } from "node:child_process";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { addDays, localDateTime } from "../src/dates.ts";
import { runMigrations } from "../src/db/migrate.ts";
import type { RequestLogEntry } from "../src/emulator/index.ts";
import { startEmulatorProcess } from "../test/helpers/emulator-process.ts";
import { round } from "./api-budget.ts";
import { buildProduct, PRODUCT_BIN } from "./product-bin.ts";

export interface FilesPipelineParams {
  lists: number;
  items: number;
  weeks: number;
  latencyMs: number;
  rateLimit: number;
  databaseUrl: string;
}

export interface FilesPipelineResult {
  files_lists: number;
  files_items_per_list: number;
  files_weeks: number;
  files_wall_s: number;
  files_floor_s: number;
  files_floor_ratio: number;
  files_api_requests: number;
  files_file_requests: number;
  files_rate_limited: number;
}

export const FULL = { lists: 10, items: 2000, weeks: 8 };
export const QUICK = { lists: 2, items: 300, weeks: 2 };

export async function filesPipeline(p: FilesPipelineParams): Promise<FilesPipelineResult> {
  const emulator = await startEmulatorProcess([
    "--seed",
    "16",
    "--businesses",
    String(Math.max(5000, Math.ceil(p.lists * p.items * 1.5))),
    "--latency",
    String(p.latencyMs),
    "--rate-limit",
    String(p.rateLimit),
    "--file-port",
    "0",
  ]);
  try {
    const tz = "Europe/Budapest";
    const local = localDateTime(new Date(), tz);
    const last = addDays(local.date, local.hour >= 7 ? -1 : -2);
    const from = addDays(last, -(p.weeks * 7) + 1);
    for (let i = 0; i < p.lists; i++)
      await emulator.admin("lists", { name: `files-${i}`, createdAt: from, size: p.items });
    await emulator.admin("reset-log", {});

    const started = performance.now();
    const { code, stderr } = await run(["sync", "--json"], {
      DATABASE_URL: p.databaseUrl,
      REGWATCH_WATCH_URL: emulator.url,
      REGWATCH_API_KEY: emulator.apiKey,
      REGWATCH_FILE_ORIGINS: emulator.fileOrigins,
      REGWATCH_RATE_LIMIT: String(p.rateLimit),
      REGWATCH_FILE_RATE_LIMIT: String(p.rateLimit),
      REGWATCH_TZ: tz,
      REGWATCH_LOG_LEVEL: "warn",
    });
    const wall = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`sync exited ${code}: ${stderr.slice(-2000)}`);
    const log = await emulator.admin<RequestLogEntry[]>("requests");
    const files = log.filter((r) => r.origin === "files").length;
    const api = log.length - files;
    if (files === 0) throw new Error("no file was requested from the file origin");
    const floor = Math.max(api, files) / p.rateLimit;
    return {
      files_lists: p.lists,
      files_items_per_list: p.items,
      files_weeks: p.weeks,
      files_wall_s: round(wall),
      files_floor_s: round(floor),
      files_floor_ratio: round(wall / floor, 3),
      files_api_requests: api,
      files_file_requests: files,
      files_rate_limited: log.filter((r) => r.status === 429).length,
    };
  } finally {
    await emulator.stop();
  }
}

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The published bin, as `regwatch` runs for a user (its first lines set Node's memory flags).
    buildProduct();
    const child = spawn(PRODUCT_BIN, args, {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stderr }));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { values } = parseArgs({
    options: {
      quick: { type: "boolean", default: false },
      lists: { type: "string" },
      items: { type: "string" },
      weeks: { type: "string" },
      latency: { type: "string" },
    },
  });
  const size = values.quick ? QUICK : FULL;
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error("set DATABASE_URL to a scratch database");
  await runMigrations(databaseUrl);
  const num = (v: string | undefined, fallback: number) => (v === undefined ? fallback : Number(v));
  const result = await filesPipeline({
    lists: num(values.lists, size.lists),
    items: num(values.items, size.items),
    weeks: num(values.weeks, size.weeks),
    latencyMs: num(values.latency, 50),
    rateLimit: 30,
    databaseUrl,
  });
  console.log(JSON.stringify(result));
}

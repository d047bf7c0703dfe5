/**
 * API budget: a backfill of many lists over many weeks against the emulator (in its own
 * process, with added latency), run as the real CLI. Compares wall time with the floor that
 * the rate limit allows: requests / REGWATCH_RATE_LIMIT.
 */
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { addDays, localDateTime } from "../src/dates.ts";
import type { RequestLogEntry } from "../src/emulator/index.ts";
import { startEmulatorProcess } from "../test/helpers/emulator-process.ts";
import { buildProduct, PRODUCT_BIN } from "./product-bin.ts";

export interface ApiBudgetParams {
  lists: number;
  weeks: number;
  itemsPerList: number;
  latencyMs: number;
  rateLimit: number;
  databaseUrl: string;
}

export interface ApiBudgetResult {
  requests: number;
  wall_s: number;
  floor_s: number;
  api_floor_ratio: number;
  peak_rss_mb: number;
  changes: number;
  files: number;
  rate_limited: number;
}

export async function apiBudget(p: ApiBudgetParams): Promise<ApiBudgetResult> {
  const emulator = await startEmulatorProcess([
    "--seed",
    "99",
    "--businesses",
    "20000",
    "--latency",
    String(p.latencyMs),
    "--rate-limit",
    String(p.rateLimit),
  ]);
  try {
    const tz = "Europe/Budapest";
    const local = localDateTime(new Date(), tz);
    const last = addDays(local.date, local.hour >= 7 ? -1 : -2);
    const from = addDays(last, -(p.weeks * 7) + 1);
    const records = await emulator.admin<{ tax_id: string; type: string }[]>(
      `businesses?limit=${p.lists * p.itemsPerList * 2 + 50}`,
    );
    const ids = records.filter((r) => r.type !== "budget_orgs").map((r) => r.tax_id);
    for (let i = 0; i < p.lists; i++) {
      const taxIds = ids.slice(i * p.itemsPerList, (i + 1) * p.itemsPerList);
      await emulator.admin("lists", { name: `bench-${i}`, createdAt: addDays(from, -7), taxIds });
    }
    // The seeding requests above are admin requests; only what regwatch sends is counted.
    await emulator.admin("reset-log", {});

    const started = performance.now();
    const { code, peakRssKb, stderr } = await runMeasured(
      ["backfill", "--from", from, "--to", last, "--json"],
      {
        DATABASE_URL: p.databaseUrl,
        REGWATCH_WATCH_URL: emulator.url,
        REGWATCH_API_KEY: emulator.apiKey,
        REGWATCH_RATE_LIMIT: String(p.rateLimit),
        REGWATCH_TZ: tz,
        REGWATCH_LOG_LEVEL: "warn",
      },
    );
    const wall = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`backfill exited ${code}: ${stderr.slice(-2000)}`);
    const log = await emulator.admin<RequestLogEntry[]>("requests");
    const requests = log.length;
    const floor = requests / p.rateLimit;
    return {
      requests,
      wall_s: round(wall),
      floor_s: round(floor),
      api_floor_ratio: round(wall / floor, 3),
      peak_rss_mb: round(peakRssKb / 1024, 1),
      changes: log.filter((r) => r.endpoint === "GET /v2/lists/:key/changes").length,
      files: log.filter((r) => r.endpoint === "GET /files").length,
      rate_limited: log.filter((r) => r.status === 429).length,
    };
  } finally {
    await emulator.stop();
  }
}

/** Runs the CLI as a user does, sampling its peak resident set (VmHWM) until it exits. */
function runMeasured(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; peakRssKb: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    // The published bin, as `regwatch` runs for a user (its first lines set Node's memory flags).
    buildProduct();
    const child = spawn(PRODUCT_BIN, args, {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    let peak = 0;
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    const sample = async () => {
      try {
        const status = await readFile(`/proc/${child.pid}/status`, "utf8");
        const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
        peak = Math.max(peak, kb);
      } catch {
        // the process is gone
      }
    };
    const timer = setInterval(sample, 200);
    child.on("error", reject);
    child.on("exit", async (code) => {
      clearInterval(timer);
      resolve({ code, peakRssKb: peak, stderr });
    });
  });
}

export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

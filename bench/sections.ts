/**
 * The scenarios of `npm run bench`'s default run, in the order they run, each on a database of its
 * own, and the runner that times them. A measured run stops at the first scenario that throws; a
 * smoke run goes on to the next one and reports every failure at the end (the caller exits 1).
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { openDatabase } from "../src/db/connect.ts";
import { startEmulator } from "../src/emulator/index.ts";
import { answerRss } from "./answer-rss.ts";
import { apiBudget } from "./api-budget.ts";
import type { BenchServer } from "./bench-database.ts";
import { consoleInbox } from "./console.ts";
import { consoleChanges } from "./console-changes.ts";
import { daily } from "./daily.ts";
import { deliveryThroughput } from "./delivery.ts";
import { filesPipeline } from "./files-pipeline.ts";
import { filesRss } from "./files-rss.ts";
import { fleetBench } from "./fleet.ts";
import { FLEET_SCALE_SMOKE, fleetScaleBench } from "./fleet-scale.ts";
import { ingest } from "./ingest.ts";
import { paymentsThroughput } from "./payments.ts";
import { binNodeFlags } from "./product-bin.ts";
import { type BenchSize, FLEET_SMOKE } from "./sizes.ts";
import { startupSeconds, statusStartupSeconds } from "./startup.ts";
import { uploadPeakRss } from "./upload-rss.ts";

export type Figures = Record<string, number>;

export interface Section {
  /** The name --skip-NAME leaves out and a failure is reported under. */
  name: string;
  run(): Promise<Figures>;
}

export function defaultSections(size: BenchSize, server: BenchServer, smoke: boolean): Section[] {
  const { api, ingest: write, files, memory } = size;
  const sections: Section[] = [
    { name: "startup", run: async () => startupSeconds(size.startupRuns) },
    {
      name: "emulator",
      run: async () => {
        const started = performance.now();
        const emulator = await startEmulator({ businesses: size.emulatorBusinesses, seed: 2 });
        const seconds = Math.round(performance.now() - started) / 1000;
        await emulator.close();
        return { emulator_start_200k_s: seconds };
      },
    },
    {
      name: "ingest",
      run: async () => {
        const url = await server.database("regwatch_bench_ingest");
        // The account's schema on every connection, as the product's own (statements name none).
        const db = await openDatabase({ databaseUrl: url, dataDir: "" }, { max: write.writers + 1 });
        try {
          const r = await ingest(db.sql, write.changes, write.batch, write.writers);
          return {
            ingest_rows_per_s: r.ingest_rows_per_s,
            copy_rows_per_s: r.copy_rows_per_s,
            ingest_copy_ratio: r.ingest_copy_ratio,
            ingest_batch: r.batch,
            ingest_writers: r.writers,
          };
        } finally {
          await db.close();
        }
      },
    },
    {
      name: "api",
      run: async () => {
        const r = await apiBudget({ ...api, databaseUrl: await server.database("regwatch_bench_api") });
        return {
          api_floor_ratio: r.api_floor_ratio,
          requests: r.requests,
          wall_s: r.wall_s,
          floor_s: r.floor_s,
          peak_rss_mb: r.peak_rss_mb,
          change_requests: r.changes,
          file_requests: r.files,
          rate_limited: r.rate_limited,
        };
      },
    },
    {
      // Change files on a second origin with its own budget, beside the windows.
      name: "files",
      run: async () => ({
        ...(await filesPipeline({
          ...files,
          latencyMs: api.latencyMs,
          rateLimit: api.rateLimit,
          databaseUrl: await server.database("regwatch_bench_files"),
        })),
      }),
    },
    {
      // Peak RSS is a process's lifetime figure: each memory scenario runs in a process of its own.
      // The smoke run judges no figure, so it runs them here (two TypeScript start-ups fewer).
      name: "memory",
      run: async () => {
        const url = await server.database("regwatch_bench_memory");
        if (smoke) {
          const files = await filesRss(url, { files: memory.files, fileBytes: memory.fileBytes });
          const answer = await answerRss(url, memory.answerItems);
          return {
            ...files,
            answer_peak_rss_mb: answer.answer_peak_rss_mb,
            answer_items: answer.answer_items,
          };
        }
        const fileArgs = ["--files", String(memory.files), "--file-bytes", String(memory.fileBytes)];
        return {
          ...memoryBench("files-rss.ts", fileArgs, url),
          ...memoryBench("answer-rss.ts", ["--items", String(memory.answerItems)], url),
        };
      },
    },
    {
      // Issue 16: pacing at 200 ms.
      name: "api-200",
      run: async () => {
        const url = await server.database("regwatch_bench_api_200");
        const r = await apiBudget({ ...api, latencyMs: 200, databaseUrl: url });
        return {
          api_floor_ratio_200ms: r.api_floor_ratio,
          requests_200ms: r.requests,
          wall_s_200ms: r.wall_s,
          rate_limited_200ms: r.rate_limited,
        };
      },
    },
    {
      // Issue 16: the next morning's sync, and `status` start-up on the synced database.
      name: "daily",
      run: async () => {
        const url = await server.database("regwatch_bench_daily");
        const figures = await daily({ ...size.daily, databaseUrl: url });
        return { ...figures, status_startup_s: statusStartupSeconds(url, size.startupRuns) };
      },
    },
    {
      name: "delivery",
      run: async () =>
        deliveryThroughput({
          ...size.delivery,
          databaseUrl: await server.database("regwatch_bench_delivery"),
        }),
    },
    {
      name: "payments",
      run: async () =>
        paymentsThroughput({
          ...size.payments,
          databaseUrl: await server.database("regwatch_bench_payments"),
        }),
    },
    {
      // Issue 48, point 13: the console's peak memory on 100 MB of wide rows, once and three at once.
      name: "upload",
      run: async () =>
        uploadPeakRss({ ...size.upload, databaseUrl: await server.database("regwatch_bench_upload") }),
    },
    {
      name: "console",
      run: async () =>
        consoleInbox({ ...size.console, databaseUrl: await server.database("regwatch_bench_console") }),
    },
    {
      // Issue 38: /changes over three years, its first, 100th and 2,000th page.
      name: "console-changes",
      run: async () =>
        consoleChanges({
          ...size.consoleChanges,
          databaseUrl: await server.database("regwatch_bench_console_changes"),
        }),
    },
  ];
  // The fleets take minutes per round at their own size (`--fleet`, `--fleet-scale`); the smoke
  // run has one tiny round of each (the one at scale through PgBouncer, every key of it).
  if (smoke)
    sections.push(
      {
        name: "fleet",
        run: () =>
          fleetBench({ ...FLEET_SMOKE, workers: [1], rateLimit: api.rateLimit, database: server.database }),
      },
      {
        name: "fleet-scale",
        run: () =>
          fleetScaleBench({
            ...FLEET_SCALE_SMOKE,
            rateLimit: 10,
            serverUrl: server.url,
            database: server.database,
          }),
      },
    );
  return sections;
}

/**
 * Runs the sections in order, each timed on standard error. `keepGoing` (the smoke run) records a
 * section that throws, or that has not ended within `limitMs`, and goes on; otherwise the first
 * failure ends the run.
 */
export async function runSections(
  sections: Section[],
  keepGoing: boolean,
  limitMs = Number.POSITIVE_INFINITY,
): Promise<{ figures: Figures; failed: string[] }> {
  const figures: Figures = {};
  const failed: string[] = [];
  for (const section of sections) {
    const started = performance.now();
    try {
      Object.assign(figures, await withinLimit(section, limitMs));
      process.stderr.write(`bench: ${section.name} done in ${seconds(started)} s\n`);
    } catch (error) {
      if (!keepGoing) throw error;
      failed.push(section.name);
      const shown = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`bench: ${section.name} FAILED after ${seconds(started)} s: ${shown}\n`);
    }
  }
  return { figures, failed };
}

/** The section's figures, or an error once `limitMs` has passed without them (a hung scenario). */
async function withinLimit(section: Section, limitMs: number): Promise<Figures> {
  if (!Number.isFinite(limitMs)) return section.run();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not done after ${limitMs / 1000} s`)), limitMs);
  });
  try {
    return await Promise.race([section.run(), late]);
  } finally {
    clearTimeout(timer);
  }
}

const seconds = (started: number) => (Math.round(performance.now() - started) / 1000).toFixed(1);

/**
 * Runs a memory scenario in a process of its own, with the Node flags `regwatch` itself starts
 * with (its `exec node` line: a smaller young generation), so the peak is the one a user's process has.
 */
function memoryBench(file: string, args: string[], databaseUrl: string): Figures {
  const out = execFileSync(
    process.execPath,
    [
      ...binNodeFlags(),
      fileURLToPath(new URL("../bin/run-ts.js", import.meta.url)),
      fileURLToPath(new URL(file, import.meta.url)),
      ...args,
    ],
    { env: { ...process.env, DATABASE_URL: databaseUrl }, encoding: "utf8" },
  );
  const all = JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, number | string>;
  return Object.fromEntries(
    Object.entries(all).filter((e): e is [string, number] => typeof e[1] === "number"),
  );
}

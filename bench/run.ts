/**
 * `npm run bench`: the API-budget backfill (at --latency and at 200 ms), the ingest comparison,
 * the daily scenario (bench/daily.ts) and start-up times. Prints a table
 * and writes bench/results.json. Not a test: absolute times vary by machine; ratios are
 * measured within one run. Options: --quick (small scenario), --lists N --weeks N --items N
 * --latency MS --changes N --batch N; the files scenario (bench/files-pipeline.ts) takes
 * --files-lists N --files-items N --files-weeks N, or --skip-files; delivery throughput (bench/delivery.ts)
 * --skip-delivery, or --delivery-only to run just it and merge its keys into results.json; the console's
 * inbox with 50,000 open alerts (bench/console.ts) --skip-console, or --console-only likewise; the
 * payment check on 200,000 rows (bench/payments.ts) --skip-payments, or --payments-only likewise;
 * the fleet (bench/fleet.ts: 20 keys, 1, 2 and 4 `regwatch worker` processes) only with --fleet,
 * which runs just it and merges its keys (--quick, --fleet-keys N, --fleet-lists N, --fleet-items N,
 * --fleet-weeks N, --fleet-changes N per business a month, --fleet-workers 1,2,4: figures of any
 * other size than the full one are printed, not merged); the fleet at scale (bench/fleet-scale.ts:
 * 200 accounts, 4 workers at --concurrency 4) only with --fleet-scale, likewise (--quick prints).
 * Uses DATABASE_URL, else an embedded Postgres in a temp dir.
 * `startup_s` is the median start of `regwatch --help` from the compiled build (`status_startup_s`
 * the same for `regwatch status` on a migrated database); --startup-only
 * measures just that (and writes bench/startup.json, leaving results.json alone).
 */
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { withNoDelay } from "../src/db/socket.ts";
import { startEmulator } from "../src/emulator/index.ts";
import { apiBudget } from "./api-budget.ts";
import { benchServer, freshDatabase } from "./bench-database.ts";
import { consoleInbox } from "./console.ts";
import { daily } from "./daily.ts";
import { deliveryThroughput } from "./delivery.ts";
import { FULL as FILES_FULL, QUICK as FILES_QUICK, filesPipeline } from "./files-pipeline.ts";
import { FLEET_FULL, FLEET_QUICK, fleetBench } from "./fleet.ts";
import { FLEET_SCALE_FULL, FLEET_SCALE_QUICK, fleetScaleBench } from "./fleet-scale.ts";
import { ingest } from "./ingest.ts";
import { paymentsThroughput } from "./payments.ts";
import { binNodeFlags } from "./product-bin.ts";
import { startupSeconds, statusStartupSeconds } from "./startup.ts";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    lists: { type: "string" },
    weeks: { type: "string" },
    items: { type: "string" },
    latency: { type: "string" },
    changes: { type: "string" },
    batch: { type: "string" },
    writers: { type: "string" },
    "skip-api": { type: "boolean", default: false },
    "skip-ingest": { type: "boolean", default: false },
    // Pacing at high latency, the daily scenario and `status` start-up (issue 16).
    "skip-api-200": { type: "boolean", default: false },
    "skip-daily": { type: "boolean", default: false },
    "startup-only": { type: "boolean", default: false },
    // Files scenario (bench/files-pipeline.ts): its own size options.
    "skip-files": { type: "boolean", default: false },
    "files-lists": { type: "string" },
    "files-items": { type: "string" },
    "files-weeks": { type: "string" },
    // Delivery throughput (issue 26, bench/delivery.ts); --delivery-only merges its keys into results.json.
    "skip-delivery": { type: "boolean", default: false },
    "delivery-only": { type: "boolean", default: false },
    // The console's inbox (issue 28, bench/console.ts); --console-only merges its keys into results.json.
    "skip-console": { type: "boolean", default: false },
    "console-only": { type: "boolean", default: false },
    // The payment check on 200,000 rows (issue 27, bench/payments.ts); --payments-only merges its keys.
    "skip-payments": { type: "boolean", default: false },
    "payments-only": { type: "boolean", default: false },
    // The fleet (issue 29, bench/fleet.ts): never in the default run (minutes per round); merges its keys.
    fleet: { type: "boolean", default: false },
    "fleet-workers": { type: "string", default: "1,2,4" },
    "fleet-keys": { type: "string" },
    "fleet-lists": { type: "string" },
    "fleet-items": { type: "string" },
    "fleet-weeks": { type: "string" },
    "fleet-changes": { type: "string" },
    // The fleet at scale (issue 38, bench/fleet-scale.ts): 200 accounts, 4 workers; merges its keys.
    "fleet-scale": { type: "boolean", default: false },
  },
});
const num = (v: string | undefined, fallback: number) => (v === undefined ? fallback : Number(v));
const quick = values.quick;
const params = {
  lists: num(values.lists, quick ? 10 : 100),
  weeks: num(values.weeks, quick ? 8 : 52),
  itemsPerList: num(values.items, 1),
  latencyMs: num(values.latency, 50),
  rateLimit: 30,
  changes: num(values.changes, quick ? 100_000 : 1_000_000),
  batch: num(values.batch, 1000),
  writers: num(values.writers, 4),
};

const startup = startupSeconds();
if (values["startup-only"]) {
  process.stdout.write(`startup_s  ${startup.startup_s} (median of ${startup.startup_runs})\n`);
  await writeFile(new URL("./startup.json", import.meta.url), `${JSON.stringify(startup, null, 2)}\n`);
  process.exit(0);
}

if (values["console-only"]) {
  const server = await benchServer();
  try {
    const url = await freshDatabase(server.url, "regwatch_bench_console");
    await mergeResults(await consoleInbox({ alerts: 50_000, requests: 50, databaseUrl: url }));
  } finally {
    await server.stop();
  }
  process.exit(0);
}

if (values["payments-only"]) {
  const server = await benchServer();
  try {
    const url = await freshDatabase(server.url, "regwatch_bench_payments");
    await mergeResults(await paymentsThroughput({ rows: 200_000, payees: 2_000, databaseUrl: url }));
  } finally {
    await server.stop();
  }
  process.exit(0);
}

if (values.fleet) {
  const server = await benchServer();
  try {
    const base = quick ? FLEET_QUICK : FLEET_FULL;
    const size = {
      keys: num(values["fleet-keys"], base.keys),
      lists: num(values["fleet-lists"], base.lists),
      items: num(values["fleet-items"], base.items),
      weeks: num(values["fleet-weeks"], base.weeks),
      changesPerMonth: num(values["fleet-changes"], base.changesPerMonth),
    };
    const workers = values["fleet-workers"].split(",").map(Number);
    const figures = await fleetBench({ ...size, workers, rateLimit: 30, serverUrl: server.url });
    // Only the full fleet's figures go into results.json; any other size is printed only.
    const full = Object.entries(FLEET_FULL).every(([k, v]) => size[k as keyof typeof size] === v);
    if (!full || workers.join(",") !== "1,2,4")
      for (const [key, value] of Object.entries(figures)) process.stdout.write(`${key}  ${value}\n`);
    else await mergeResults(figures);
  } finally {
    await server.stop();
  }
  process.exit(0);
}

if (values["fleet-scale"]) {
  const server = await benchServer();
  try {
    const size = quick ? FLEET_SCALE_QUICK : FLEET_SCALE_FULL;
    const figures = await fleetScaleBench({ ...size, rateLimit: 10, serverUrl: server.url });
    // Only the full size's figures go into results.json; --quick prints them.
    if (quick) for (const [key, value] of Object.entries(figures)) process.stdout.write(`${key}  ${value}\n`);
    else await mergeResults(figures);
  } finally {
    await server.stop();
  }
  process.exit(0);
}

if (values["delivery-only"]) {
  const server = await benchServer();
  try {
    const url = await freshDatabase(server.url, "regwatch_bench_delivery");
    await mergeResults(await deliveryThroughput({ alerts: 1000, latencyMs: 50, databaseUrl: url }));
  } finally {
    await server.stop();
  }
  process.exit(0);
}

const server = await benchServer();
try {
  const results: Record<string, number> = {
    lists: params.lists,
    weeks: params.weeks,
    items_per_list: params.itemsPerList,
    latency_ms: params.latencyMs,
    rate_limit: params.rateLimit,
    changes: params.changes,
    ...startup,
  };
  {
    const started = performance.now();
    const emulator = await startEmulator({ businesses: 200_000, seed: 2 });
    results.emulator_start_200k_s = Math.round(performance.now() - started) / 1000;
    await emulator.close();
  }
  if (!values["skip-ingest"]) {
    const url = await freshDatabase(server.url, "regwatch_bench_ingest");
    const sql = postgres(url, withNoDelay({ max: params.writers + 1, onnotice: () => {} }));
    try {
      const r = await ingest(sql, params.changes, params.batch, params.writers);
      Object.assign(results, {
        ingest_rows_per_s: r.ingest_rows_per_s,
        copy_rows_per_s: r.copy_rows_per_s,
        ingest_copy_ratio: r.ingest_copy_ratio,
        ingest_batch: r.batch,
        ingest_writers: r.writers,
      });
    } finally {
      await sql.end();
    }
  }
  if (!values["skip-api"]) {
    const url = await freshDatabase(server.url, "regwatch_bench_api");
    const r = await apiBudget({ ...params, databaseUrl: url });
    Object.assign(results, {
      api_floor_ratio: r.api_floor_ratio,
      requests: r.requests,
      wall_s: r.wall_s,
      floor_s: r.floor_s,
      peak_rss_mb: r.peak_rss_mb,
      change_requests: r.changes,
      file_requests: r.files,
      rate_limited: r.rate_limited,
    });
  }
  if (!values["skip-files"]) {
    // Files scenario: change files on a second origin with its own budget, beside the windows.
    const size = quick ? FILES_QUICK : FILES_FULL;
    const url = await freshDatabase(server.url, "regwatch_bench_files");
    Object.assign(
      results,
      await filesPipeline({
        lists: num(values["files-lists"], size.lists),
        items: num(values["files-items"], size.items),
        weeks: num(values["files-weeks"], size.weeks),
        latencyMs: params.latencyMs,
        rateLimit: params.rateLimit,
        databaseUrl: url,
      }),
    );
  }
  {
    // Peak RSS is a process's lifetime figure: each memory scenario runs in a process of its own.
    const url = await freshDatabase(server.url, "regwatch_bench_memory");
    Object.assign(results, memoryBench("files-rss.ts", url), memoryBench("answer-rss.ts", url));
  }
  // Issue 16: pacing at 200 ms, the next morning's sync, `status` start-up.
  if (!values["skip-api"] && !values["skip-api-200"]) {
    const url = await freshDatabase(server.url, "regwatch_bench_api_200");
    const r = await apiBudget({ ...params, latencyMs: 200, databaseUrl: url });
    Object.assign(results, {
      api_floor_ratio_200ms: r.api_floor_ratio,
      requests_200ms: r.requests,
      wall_s_200ms: r.wall_s,
      rate_limited_200ms: r.rate_limited,
    });
  }
  if (!values["skip-daily"]) {
    const url = await freshDatabase(server.url, "regwatch_bench_daily");
    Object.assign(
      results,
      await daily({
        lists: quick ? 5 : 20,
        itemsPerList: quick ? 100 : 500,
        weeks: quick ? 4 : 8,
        databaseUrl: url,
      }),
    );
    results.status_startup_s = statusStartupSeconds(url);
  }
  // End of issue 16's scenarios.
  if (!values["skip-delivery"]) {
    const url = await freshDatabase(server.url, "regwatch_bench_delivery");
    Object.assign(results, await deliveryThroughput({ alerts: 1000, latencyMs: 50, databaseUrl: url }));
  }
  if (!values["skip-payments"]) {
    const url = await freshDatabase(server.url, "regwatch_bench_payments");
    Object.assign(results, await paymentsThroughput({ rows: 200_000, payees: 2_000, databaseUrl: url }));
  }
  if (!values["skip-console"]) {
    const url = await freshDatabase(server.url, "regwatch_bench_console");
    Object.assign(results, await consoleInbox({ alerts: 50_000, requests: 50, databaseUrl: url }));
  }
  const width = Math.max(...Object.keys(results).map((k) => k.length));
  for (const [key, value] of Object.entries(results))
    process.stdout.write(`${key.padEnd(width)}  ${value}\n`);
  await writeFile(new URL("./results.json", import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write("written to bench/results.json\n");
} finally {
  await server.stop();
}

/**
 * Runs a memory scenario in a process of its own, with the Node flags `regwatch` itself starts
 * with (its `exec node` line: a smaller young generation), so the peak is the one a user's process has.
 */
function memoryBench(file: string, databaseUrl: string): Record<string, number> {
  const out = execFileSync(
    process.execPath,
    [
      ...binNodeFlags(),
      fileURLToPath(new URL("../bin/run-ts.js", import.meta.url)),
      fileURLToPath(new URL(file, import.meta.url)),
    ],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      encoding: "utf8",
    },
  );
  const all = JSON.parse(out.trim().split("\n").at(-1)!) as Record<string, number | string>;
  return Object.fromEntries(
    Object.entries(all).filter((e): e is [string, number] => typeof e[1] === "number"),
  );
}

/** Adds a scenario's figures to bench/results.json, keeping every other key. */
async function mergeResults(figures: Record<string, number>): Promise<void> {
  const file = new URL("./results.json", import.meta.url);
  const previous = await readFile(file, "utf8").then(
    (text) => JSON.parse(text) as Record<string, number>,
    () => ({}),
  );
  for (const [key, value] of Object.entries(figures)) process.stdout.write(`${key}  ${value}\n`);
  await writeFile(file, `${JSON.stringify({ ...previous, ...figures }, null, 2)}\n`);
  process.stdout.write("merged into bench/results.json\n");
}

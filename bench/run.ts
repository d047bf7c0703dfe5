/**
 * `npm run bench`: the API-budget backfill (at --latency and at 200 ms), the ingest comparison,
 * the daily scenario (bench/daily.ts) and start-up times. Prints a table
 * and writes bench/results.json. Not a test: absolute times vary by machine; ratios are
 * measured within one run. Options: --quick (small scenario), --lists N --weeks N --items N
 * --latency MS --changes N --batch N; the files scenario (bench/files-pipeline.ts) takes
 * --files-lists N --files-items N --files-weeks N, or --skip-files; delivery throughput (bench/delivery.ts)
 * --skip-delivery, or --delivery-only to run just it and merge its keys into results.json; the console's
 * inbox with 50,000 open alerts (bench/console.ts) --skip-console, or --console-only likewise; the
 * console's /changes over three years at 1,000,000 heading changes (bench/console-changes.ts)
 * --skip-console-changes, or --console-changes-only likewise; the
 * payment check on 200,000 rows (bench/payments.ts) --skip-payments, or --payments-only likewise;
 * the console's peak memory on a 100 MB upload of wide rows (bench/upload-rss.ts) --skip-upload;
 * the fleet (bench/fleet.ts: 20 keys, 1, 2 and 4 `regwatch worker` processes) only with --fleet,
 * which runs just it and merges its keys (--quick, --fleet-keys N, --fleet-lists N, --fleet-items N,
 * --fleet-weeks N, --fleet-changes N per business a month, --fleet-workers 1,2,4: figures of any
 * other size than the full one are printed, not merged); the fleet at scale (bench/fleet-scale.ts:
 * 1,000 accounts through PgBouncer, 4 workers at --concurrency 4) only with --fleet-scale, likewise
 * (--accounts N another size, printed unless 1,000; --quick prints).
 * Uses DATABASE_URL, else an embedded Postgres in a temp dir.
 * --smoke runs every scenario of the default run and a one-worker fleet round at a tiny size
 * (bench/sizes.ts), prints the figures and writes nothing, on TEST_DATABASE_URL's server (the
 * tests' rule) else an embedded one; it goes on past a scenario that throws and exits 1 if any did.
 * `startup_s` is the median start of `regwatch --help` from the compiled build, beside
 * `node_start_s`, Node's own start on the same machine (`status_startup_s`
 * the same for `regwatch status` on a migrated database); --startup-only
 * measures just those three (and writes bench/startup.json, leaving results.json alone).
 * --loaded (with any of the above) runs the selected scenarios beside a child process that keeps one
 * core busy (bench/loaded.ts), started first and killed on every way out; its figures are marked
 * `loaded_cores: 1` and go to bench/results-loaded.json (startup-loaded.json), never results.json.
 */
import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { type BenchServer, benchServer, freshDatabase } from "./bench-database.ts";
import { consoleInbox } from "./console.ts";
import { consoleChanges } from "./console-changes.ts";
import { deliveryThroughput } from "./delivery.ts";
import { FLEET_FULL, FLEET_QUICK, fleetBench } from "./fleet.ts";
import { FLEET_SCALE_FULL, FLEET_SCALE_QUICK, fleetScaleBench } from "./fleet-scale.ts";
import { figuresFile, startLoad } from "./loaded.ts";
import { paymentsThroughput } from "./payments.ts";
import { defaultSections, type Figures, runSections } from "./sections.ts";
import { benchSize } from "./sizes.ts";
import { startupSeconds, statusStartupSeconds } from "./startup.ts";

const { values } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    // Every scenario at a tiny size: proves the bench still runs (CI); nothing judged or written.
    smoke: { type: "boolean", default: false },
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
    // /changes by keyset over three years (issue 38, bench/console-changes.ts); merges its keys likewise.
    "skip-console-changes": { type: "boolean", default: false },
    "console-changes-only": { type: "boolean", default: false },
    // The payment check on 200,000 rows (issue 27, bench/payments.ts); --payments-only merges its keys.
    "skip-payments": { type: "boolean", default: false },
    "payments-only": { type: "boolean", default: false },
    // The console's peak memory on 100 MB of 64 KiB rows (issue 48, point 13, bench/upload-rss.ts).
    "skip-upload": { type: "boolean", default: false },
    // The fleet (issue 29, bench/fleet.ts): never in the default run (minutes per round); merges its keys.
    fleet: { type: "boolean", default: false },
    "fleet-workers": { type: "string", default: "1,2,4" },
    "fleet-keys": { type: "string" },
    "fleet-lists": { type: "string" },
    "fleet-items": { type: "string" },
    "fleet-weeks": { type: "string" },
    "fleet-changes": { type: "string" },
    // The fleet at scale (issues 38, 50, bench/fleet-scale.ts): 1,000 accounts, 4 workers, through
    // PgBouncer; merges its keys (--accounts N: another size, printed only unless 1,000).
    "fleet-scale": { type: "boolean", default: false },
    // One core kept busy for the whole run (issue 50, point 5, bench/loaded.ts); figures kept apart.
    loaded: { type: "boolean", default: false },
    accounts: { type: "string" },
  },
});
const num = (v: string | undefined, fallback: number) => (v === undefined ? fallback : Number(v));
const quick = values.quick;
const smoke = values.smoke;
const ONLY = [
  "startup-only",
  "console-only",
  "console-changes-only",
  "payments-only",
  "delivery-only",
  "fleet",
] as const;
if (smoke && ONLY.some((option) => values[option])) {
  process.stderr.write(`--smoke runs every scenario; it does not go with --${ONLY.join(", --")}\n`);
  process.exit(64);
}
const loaded = values.loaded;
if (loaded) {
  const load = await startLoad();
  process.stdout.write(`loaded: process ${load.pid} keeps one core busy for the whole run\n`);
}
/** Where figures go: bench/NAME, or NAME-loaded.json under --loaded. */
const figuresAt = (name: string) => figuresFile(name, loaded);
/** Under --loaded, every figure set says so. */
const marked = <T extends Record<string, number>>(figures: T): T =>
  loaded ? { ...figures, loaded_cores: 1 } : figures;

if (values["startup-only"]) {
  // Both keys judged against node_start_s, so all three come from the one run.
  const startup = marked({
    ...startupSeconds(),
    status_startup_s: await onServer(async (server) =>
      statusStartupSeconds(await server.database("regwatch_bench_startup")),
    ),
  });
  process.stdout.write(
    `startup_s  ${startup.startup_s}, status_startup_s ${startup.status_startup_s}, node_start_s ${startup.node_start_s} (medians of ${startup.startup_runs})\n`,
  );
  await writeFile(figuresAt("startup.json"), `${JSON.stringify(startup, null, 2)}\n`);
  process.exit(0);
}

if (values["console-only"]) {
  await onServer(async (server) => {
    const url = await server.database("regwatch_bench_console");
    await mergeResults(await consoleInbox({ alerts: 50_000, requests: 50, databaseUrl: url }));
  });
  process.exit(0);
}

if (values["console-changes-only"]) {
  await onServer(async (server) => {
    const url = await server.database("regwatch_bench_console_changes");
    await mergeResults(await consoleChanges({ ...benchSize("full").consoleChanges, databaseUrl: url }));
  });
  process.exit(0);
}

if (values["payments-only"]) {
  await onServer(async (server) => {
    const url = await server.database("regwatch_bench_payments");
    await mergeResults(await paymentsThroughput({ rows: 200_000, payees: 2_000, databaseUrl: url }));
  });
  process.exit(0);
}

if (values.fleet) {
  await onServer(async (server) => {
    const base = quick ? FLEET_QUICK : FLEET_FULL;
    const size = {
      keys: num(values["fleet-keys"], base.keys),
      lists: num(values["fleet-lists"], base.lists),
      items: num(values["fleet-items"], base.items),
      weeks: num(values["fleet-weeks"], base.weeks),
      changesPerMonth: num(values["fleet-changes"], base.changesPerMonth),
    };
    const workers = values["fleet-workers"].split(",").map(Number);
    const figures = await fleetBench({ ...size, workers, rateLimit: 30, database: server.database });
    // Only the full fleet's figures go into results.json; any other size is printed only.
    const full = Object.entries(FLEET_FULL).every(([k, v]) => size[k as keyof typeof size] === v);
    if (!full || workers.join(",") !== "1,2,4") printFigures(marked(figures));
    else await mergeResults(figures);
  });
  process.exit(0);
}

if (values["fleet-scale"]) {
  const base = quick ? FLEET_SCALE_QUICK : FLEET_SCALE_FULL;
  const accounts = num(values.accounts, base.accounts);
  if (!Number.isInteger(accounts) || accounts < 1 || accounts > 9999) {
    process.stderr.write(
      `--accounts takes a whole number of accounts from 1 to 9999, not "${values.accounts}"\n`,
    );
    process.exit(64);
  }
  const server = await benchServer();
  try {
    const figures = await fleetScaleBench({
      ...base,
      accounts,
      rateLimit: 10,
      serverUrl: server.url,
      database: (name) => freshDatabase(server.url, name),
    });
    // Only the full size's figures go into results.json; any other size is printed.
    if (accounts !== FLEET_SCALE_FULL.accounts || quick) printFigures(figures);
    else await mergeResults(figures);
  } finally {
    await server.stop();
  }
  process.exit(0);
}

if (values["delivery-only"]) {
  await onServer(async (server) => {
    const url = await server.database("regwatch_bench_delivery");
    await mergeResults(await deliveryThroughput({ alerts: 1000, latencyMs: 50, databaseUrl: url }));
  });
  process.exit(0);
}

const base = benchSize(smoke ? "smoke" : quick ? "quick" : "full");
const size = {
  ...base,
  api: {
    ...base.api,
    lists: num(values.lists, base.api.lists),
    weeks: num(values.weeks, base.api.weeks),
    itemsPerList: num(values.items, base.api.itemsPerList),
    latencyMs: num(values.latency, base.api.latencyMs),
  },
  ingest: {
    changes: num(values.changes, base.ingest.changes),
    batch: num(values.batch, base.ingest.batch),
    writers: num(values.writers, base.ingest.writers),
  },
  files: {
    lists: num(values["files-lists"], base.files.lists),
    items: num(values["files-items"], base.files.items),
    weeks: num(values["files-weeks"], base.files.weeks),
  },
};
const skipped = (name: string) =>
  (values as Record<string, unknown>)[`skip-${name}`] === true || (name === "api-200" && values["skip-api"]);

const failed = await onServer(async (server) => {
  const sections = defaultSections(size, server, smoke).filter((s) => !skipped(s.name));
  // A smoke scenario takes seconds: one still running after a minute has hung.
  const run = await runSections(sections, smoke, smoke ? 60_000 : undefined);
  const results: Figures = {
    lists: size.api.lists,
    weeks: size.api.weeks,
    items_per_list: size.api.itemsPerList,
    latency_ms: size.api.latencyMs,
    rate_limit: size.api.rateLimit,
    changes: size.ingest.changes,
    ...marked(run.figures),
  };
  printFigures(results);
  if (smoke) {
    // Figures at this size describe nothing: printed to show the scenarios ran, never kept.
    process.stdout.write(
      run.failed.length === 0
        ? `smoke run: all ${sections.length} scenarios ran (figures not judged, nothing written)\n`
        : `smoke run: ${run.failed.length} of ${sections.length} scenarios failed: ${run.failed.join(", ")}\n`,
    );
    return run.failed;
  }
  const file = figuresAt("results.json");
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`written to bench/${file.pathname.split("/").pop()}\n`);
  return [];
});
// Exits even if a failed scenario left a handle open (a server, a timer): CI must not hang.
process.exit(failed.length > 0 ? 1 : 0);

/** Runs `body` on the bench's Postgres (bench/bench-database.ts), stopped afterwards whatever happens. */
async function onServer<T>(body: (server: BenchServer) => Promise<T>): Promise<T> {
  const server = await benchServer({ smoke });
  try {
    return await body(server);
  } finally {
    await server.stop();
  }
}

function printFigures(figures: Figures): void {
  const width = Math.max(0, ...Object.keys(figures).map((k) => k.length));
  for (const [key, value] of Object.entries(figures))
    process.stdout.write(`${key.padEnd(width)}  ${value}\n`);
}

/** Adds a scenario's figures to bench/results.json (results-loaded.json), keeping every other key. */
async function mergeResults(measured: Record<string, number>): Promise<void> {
  const figures = marked(measured);
  const file = figuresAt("results.json");
  const previous = await readFile(file, "utf8").then(
    (text) => JSON.parse(text) as Record<string, number>,
    () => ({}),
  );
  printFigures(figures);
  await writeFile(file, `${JSON.stringify({ ...previous, ...figures }, null, 2)}\n`);
  process.stdout.write(`merged into bench/${file.pathname.split("/").pop()}\n`);
}

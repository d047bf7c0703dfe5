/**
 * Peak RSS of the file phase with ten 55 MB JSON change files (under the 64 MiB cap). Run:
 *   DATABASE_URL=postgres://…/scratch node bin/run-ts.js bench/files-rss.ts
 * Prints the peak resident set size; the target is under 256 MB.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRegistry } from "../src/api/registry.ts";
import { loadConfig, requireWatch } from "../src/config.ts";
import { openDatabase } from "../src/db/connect.ts";
import { runMigrations } from "../src/db/migrate.ts";
import { silentLogger } from "../src/logger.ts";
import { fetchOpenFiles } from "../src/sync/file-fetch.ts";
import { noProgress } from "../src/sync/progress.ts";

const FILES = 10;
const SIZE = 55 * 1000 * 1000;

// One 55 MB JSON body, built once and served to every request (the server is not what is measured).
const row = JSON.stringify({ heading: "address", value: "x".repeat(200) });
const body = Buffer.from(
  `[${Array.from({ length: Math.floor(SIZE / (row.length + 1)) }, () => row).join(",")}]`,
);
const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": "application/json", "content-length": body.length });
  response.end(body);
});
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const config = loadConfig({
  ...process.env,
  REGWATCH_WATCH_URL: url,
  REGWATCH_API_KEY: "bench-key",
  REGWATCH_FILE_ORIGINS: url,
  REGWATCH_CONCURRENCY: "8",
});
requireWatch(config);
const db = await openDatabase(config);
await runMigrations(db.url);
await db.sql`truncate regwatch.change_files`;
await db.sql`insert into regwatch.change_files (path) select ${url} || '/files/' || g || '.json' from generate_series(1, ${FILES}) g`;
const registry = createRegistry(config, { log: silentLogger });
const baseline = process.memoryUsage().rss;
let peak = 0;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);
const started = performance.now();
const stats = await fetchOpenFiles({
  sql: db.sql,
  download: (path) => registry.downloadFile(path),
  concurrency: config.concurrency,
  progress: noProgress,
});
clearInterval(sampler);
const maxRss = process.resourceUsage().maxRSS * 1024;
console.log(
  JSON.stringify({
    files: FILES,
    file_mb: Math.round(body.length / 1e6),
    fetched: stats.fetched,
    failed: stats.failed,
    errors: stats.errors.slice(0, 3),
    seconds: Math.round((performance.now() - started) / 100) / 10,
    baseline_rss_mb: Math.round(baseline / 1e6),
    peak_rss_mb_sampled: Math.round(peak / 1e6),
    max_rss_mb: Math.round(maxRss / 1e6),
    max_rss_above_baseline_mb: Math.round((maxRss - baseline) / 1e6),
  }),
);
await db.sql`truncate regwatch.change_files`;
await registry.close();
await db.close();
server.close();

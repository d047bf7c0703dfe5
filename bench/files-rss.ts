/**
 * Peak RSS of the whole file phase, parsing included, with ten 55 MB JSON change files (under the
 * 64 MiB cap) at REGWATCH_CONCURRENCY=8. The files are served by a child process (its memory is
 * not ours), built chunk by chunk. Run alone:
 *   DATABASE_URL=postgres://…/scratch node --max-semi-space-size=2 bin/run-ts.js bench/files-rss.ts
 * or through `npm run bench` (files_peak_rss_mb). The target is under 256 MB.
 */
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createRegistry } from "../src/api/registry.ts";
import { loadConfig, requireWatch } from "../src/config.ts";
import { openDatabase } from "../src/db/connect.ts";
import { runMigrations } from "../src/db/migrate.ts";
import { silentLogger } from "../src/logger.ts";
import { parseStoredFiles } from "../src/parse/parse-files.ts";
import { fetchOpenFiles } from "../src/sync/file-fetch.ts";
import { noProgress } from "../src/sync/progress.ts";
import { serveFromChild } from "./child-server.ts";

export const FILES = 10;
export const FILE_BYTES = 55 * 1000 * 1000;

/** A server of change files in the shape the emulator uses, each FILE_BYTES long, streamed. */
const SERVER = `
const http = require("node:http");
const size = Number(process.argv[1]);
const entry = JSON.stringify({ heading: "address", old_value: "x".repeat(100), new_value: "y".repeat(100) });
const head = '{"tax_id":"12345678","date":"2024-03-08","changes":[' + entry;
const count = Math.floor((size - head.length - 2) / (entry.length + 1));
const block = Buffer.from(("," + entry).repeat(1000));
const tail = Buffer.from(("," + entry).repeat(count % 1000) + "]}");
const length = head.length + block.length * Math.floor(count / 1000) + tail.length;
http.createServer((req, res) => {
  res.writeHead(200, { "content-type": "application/json", "content-length": length });
  res.write(head);
  let left = Math.floor(count / 1000);
  const more = () => {
    while (left > 0) { left--; if (!res.write(block)) return res.once("drain", more); }
    res.end(tail);
  };
  more();
}).listen(0, "127.0.0.1", function () { process.stdout.write(String(this.address().port) + "\\n"); });
`;

export interface FilesRssResult {
  files_peak_rss_mb: number;
  files_fetched: number;
  /** Files whose body was parsed (each larger than the whole-body bound: read in pages). */
  files_parsed: number;
  /** Peak RSS once every file was fetched, before parsing. */
  files_fetch_peak_rss_mb: number;
  files_rss_s: number;
}

export async function filesRss(
  databaseUrl: string,
  size = { files: FILES, fileBytes: FILE_BYTES },
): Promise<FilesRssResult> {
  const count = size.files;
  const server = await serveFromChild(SERVER, String(size.fileBytes));
  try {
    const url = server.url;
    const config = loadConfig({
      ...process.env,
      DATABASE_URL: databaseUrl,
      REGWATCH_WATCH_URL: url,
      REGWATCH_API_KEY: "bench-key",
      REGWATCH_FILE_ORIGINS: url,
      REGWATCH_CONCURRENCY: "8",
    });
    requireWatch(config);
    const db = await openDatabase(config);
    await runMigrations(db.url);
    await db.sql`truncate regwatch.change_files cascade`;
    await db.sql`insert into regwatch.change_files (path) select ${url} || '/files/' || g || '.json' from generate_series(1, ${count}) g`;
    const registry = createRegistry(config, { log: silentLogger });
    const started = performance.now();
    const stats = await fetchOpenFiles({
      sql: db.sql,
      fetchFile: (path, consume) => registry.streamFile(path, consume),
      concurrency: config.concurrency,
      progress: noProgress,
    });
    // The peak so far is the fetch's own; what parsing adds shows against files_peak_rss_mb.
    const fetchPeak = process.resourceUsage().maxRSS;
    const parsed = await parseStoredFiles(db.sql);
    const seconds = (performance.now() - started) / 1000;
    if (stats.fetched !== count)
      throw new Error(`fetched ${stats.fetched} of ${count}: ${stats.errors.join("; ")}`);
    if (parsed.files !== count) throw new Error(`parsed ${parsed.files} of ${count}`);
    if (parsed.parsed !== count) throw new Error(`${parsed.parsed} of ${count} bodies parsed`);
    await db.sql`truncate regwatch.change_files cascade`;
    await registry.close();
    await db.close();
    return {
      // The process's peak since it started: everything the phase held, nothing sampled away.
      files_peak_rss_mb: Math.round((process.resourceUsage().maxRSS * 1024) / 1e6),
      files_fetched: stats.fetched,
      files_parsed: parsed.parsed,
      files_fetch_peak_rss_mb: Math.round((fetchPeak * 1024) / 1e6),
      files_rss_s: Math.round(seconds * 10) / 10,
    };
  } finally {
    server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error("set DATABASE_URL to a scratch database");
  // --files N --file-bytes N: another size (the smoke run's); the figures are the full size's.
  const { values } = parseArgs({ options: { files: { type: "string" }, "file-bytes": { type: "string" } } });
  const size = {
    files: Number(values.files ?? FILES),
    fileBytes: Number(values["file-bytes"] ?? FILE_BYTES),
  };
  console.log(JSON.stringify(await filesRss(databaseUrl, size)));
}

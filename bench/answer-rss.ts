/**
 * Peak RSS of a sync whose one changes answer holds 1,000,000 items, sent chunked (no declared
 * length, so the cap is met while reading, the costlier way). The answer is served by a child
 * process. With the default REGWATCH_MAX_RESPONSE_BYTES (4 MiB) the answer is refused by the cap
 * and the window fails with a message naming the variable and the window. Run alone:
 *   DATABASE_URL=postgres://…/scratch node --max-semi-space-size=2 bin/run-ts.js bench/answer-rss.ts
 * or through `npm run bench` (answer_peak_rss_mb).
 */
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { createRegistry } from "../src/api/registry.ts";
import { loadConfig, requireWatch } from "../src/config.ts";
import { openDatabase } from "../src/db/connect.ts";
import { runMigrations } from "../src/db/migrate.ts";
import { silentLogger } from "../src/logger.ts";
import { runSyncPass } from "../src/sync/sync-pass.ts";
import { serveFromChild } from "./child-server.ts";

export const ITEMS = 1_000_000;
const DAY = "2024-03-08";

const SERVER = `
const http = require("node:http");
const items = Number(process.argv[1]);
http.createServer((req, res) => {
  const url = new URL(req.url, "http://x");
  res.setHeader("content-type", "application/json");
  if (url.pathname === "/v2/lists")
    return res.end(JSON.stringify({ watch_lists: [{ list_key: "wl_big", list_name: "big", created_at: "${DAY}" }] }));
  const from = url.searchParams.get("start_date"), to = url.searchParams.get("end_date");
  res.write('{"start_date":"' + from + '","end_date":"' + to + '","changed_items":[');
  let i = 0;
  const more = () => {
    while (i < items) {
      let block = "";
      for (let j = 0; j < 1000 && i < items; j++, i++) {
        const id = String(10000000 + (i % 89999999));
        block += (i ? "," : "") + JSON.stringify({ change: from, tax_id: id, chapter: "2", changed_headings: ["name"], path: "/files/" + id + "-" + i + ".json" });
      }
      if (!res.write(block)) return res.once("drain", more);
    }
    res.end("]}");
  };
  more();
}).listen(0, "127.0.0.1", function () { process.stdout.write(String(this.address().port) + "\\n"); });
`;

export interface AnswerRssResult {
  answer_peak_rss_mb: number;
  answer_items: number;
  answer_outcome: string;
}

export async function answerRss(databaseUrl: string, items = ITEMS): Promise<AnswerRssResult> {
  const server = await serveFromChild(SERVER, String(items));
  try {
    const url = server.url;
    const config = loadConfig({
      ...process.env,
      DATABASE_URL: databaseUrl,
      REGWATCH_WATCH_URL: url,
      REGWATCH_API_KEY: "bench-key",
      REGWATCH_FILE_ORIGINS: url,
      REGWATCH_FETCH_FILES: "none",
      REGWATCH_MAX_ATTEMPTS: "1",
    });
    requireWatch(config);
    const db = await openDatabase(config);
    await runMigrations(db.url);
    const registry = createRegistry(config, { log: silentLogger });
    const report = await runSyncPass(
      { sql: db.sql, registry, config, log: silentLogger, runId: null },
      { kind: "backfill", from: DAY, to: DAY },
    );
    await registry.close();
    await db.close();
    return {
      answer_peak_rss_mb: Math.round((process.resourceUsage().maxRSS * 1024) / 1e6),
      answer_items: items,
      answer_outcome:
        report.windowsFailed > 0
          ? `window failed: ${report.errors[0]}`
          : `stored ${report.changesWritten} changes`,
    };
  } finally {
    server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error("set DATABASE_URL to a scratch database");
  // --items N: another size (the smoke run's); the figures are the full size's.
  const { values } = parseArgs({ options: { items: { type: "string" } } });
  console.log(JSON.stringify(await answerRss(databaseUrl, Number(values.items ?? ITEMS))));
}

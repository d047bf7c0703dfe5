/**
 * GET /runs: recorded runs newest first with their statistics and errors, filtered by kind and
 * status (?kind=sync&status=failed), page by page. Run errors and statistics may hold server
 * text that echoes a key: they are scrubbed as `regwatch status` scrubs them.
 */
import { readRunsPage } from "../../db/console-runs.ts";
import { runCounts } from "../../db/status.ts";
import { redactJson, redactSecrets } from "../../secrets.ts";
import type { RegisterAccountPages } from "../kit.ts";
import { line, PAGE, query } from "../route-schemas.ts";

const RUNS = { querystring: query({ kind: line(200), status: line(40), page: PAGE }) };

import { pageLinks, QueryReader, splitPage } from "./query-reader.ts";

const PAGE_SIZE = 50;
const STATUSES = ["running", "ok", "partial", "failed"] as const;

export const registerRunsPages: RegisterAccountPages = (app, kit) => {
  app.get("/runs", { schema: RUNS }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const q = new QueryReader(query);
    const { sql } = request.deps.db;
    const counts = await runCounts(sql);
    const kinds = [...new Set(counts.map((c) => c.kind))];
    const kind = q.text("kind");
    const status = q.choice("status", STATUSES);
    const page = q.integer("page", 1, 1, 100_000);
    const fetched = await readRunsPage(
      sql,
      { kind, status },
      { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE },
    );
    const { rows, hasMore } = splitPage(fetched, PAGE_SIZE);
    return kit.render(
      request,
      reply,
      "runs",
      {
        title: "Runs",
        problems: q.problems,
        form: { kind: kind ?? "", status: status ?? "" },
        kinds,
        statuses: STATUSES,
        counts,
        runs: rows.map((r) => ({
          ...r,
          took: r.finishedAt ? durationText(r.finishedAt.getTime() - r.startedAt.getTime()) : "",
          error: r.error === null ? null : redactSecrets(r.error),
          stats: statLines(redactJson(r.stats) as Record<string, unknown>),
        })),
        links: pageLinks("/runs", query, page, hasMore),
      },
      q.problems.length > 0 ? 400 : 200,
    );
  });
};

/** "3 min 12 s", "850 ms". */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${s % 60} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** A run's statistics as name and value lines; nested values as compact JSON. */
export function statLines(stats: Record<string, unknown>): { name: string; value: string }[] {
  return Object.entries(stats)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([name, v]) => ({ name, value: typeof v === "object" ? JSON.stringify(v) : String(v) }));
}

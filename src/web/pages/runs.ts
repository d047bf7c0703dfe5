/**
 * GET /runs: recorded runs newest first with their statistics and errors, filtered by kind and
 * status (?kind=sync&status=failed), page by page. Run errors and statistics may hold server
 * text that echoes a key: they are scrubbed as `regwatch status` scrubs them.
 */

import { formatsFor } from "../../i18n/format.ts";
import { type Translator, translatorFor } from "../../i18n/messages.ts";
import { redactJson, redactSecrets } from "../../secrets.ts";
import { runCounts } from "../../status/sql/status.ts";
import type { RegisterAccountPages } from "../kit.ts";
import { line, PAGE, query } from "../route-schemas.ts";
import { readRunsPage } from "../sql/runs.ts";

const RUNS = { querystring: query({ kind: line(200), status: line(40), page: PAGE }) };

import { pageLinks, QueryReader, splitPage } from "./query-reader.ts";

const PAGE_SIZE = 50;
const STATUSES = ["running", "ok", "partial", "failed"] as const;

export const registerRunsPages: RegisterAccountPages = (app, kit) => {
  app.get("/runs", { schema: RUNS }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const i18n = kit.i18n(request);
    const q = new QueryReader(query, i18n);
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
        title: i18n.t("runs.title"),
        problems: q.problems,
        form: { kind: kind ?? "", status: status ?? "" },
        kinds,
        statuses: STATUSES,
        counts,
        runs: rows.map((r) => ({
          ...r,
          took: r.finishedAt ? durationText(r.finishedAt.getTime() - r.startedAt.getTime(), i18n) : "",
          error: r.error === null ? null : redactSecrets(r.error),
          stats: statLines(redactJson(r.stats) as Record<string, unknown>, i18n),
        })),
        links: pageLinks("/runs", query, page, hasMore),
      },
      q.problems.length > 0 ? 400 : 200,
    );
  });
};

/** "3 min 12 s", "850 ms" (in the reader's words). */
export function durationText(ms: number, i18n: Translator = translatorFor("en")): string {
  if (ms < 1000) return i18n.t("duration.ms", { ms: Math.max(0, Math.round(ms)) });
  const s = Math.round(ms / 1000);
  if (s < 60) return i18n.t("duration.s", { s });
  const m = Math.floor(s / 60);
  return m < 60
    ? i18n.t("duration.min", { m, s: s % 60 })
    : i18n.t("duration.h", { h: Math.floor(m / 60), m: m % 60 });
}

/**
 * A run's statistics as name and value lines, in the reader's words: numbers grouped as the
 * language groups them, yes and no for flags, days as the language writes them, a kind or an
 * outcome in words, nested values as "name: value" pairs. `name` stays the stored key (shown on
 * hover); the template says it as a word.
 */
export function statLines(
  stats: Record<string, unknown>,
  i18n: Translator = translatorFor("en"),
): { name: string; value: string }[] {
  const formats = formatsFor(i18n.locale, "UTC");
  const said = (prefix: string, code: string) => {
    const key = `${prefix}.${code}`;
    return i18n.has(key) ? i18n.t(key) : code;
  };
  const text = (name: string, v: unknown): string => {
    if (typeof v === "number") return formats.number(v);
    if (typeof v === "boolean") return i18n.t(v ? "runs.yes" : "runs.no");
    if (typeof v === "string" && (name === "kind" || name === "status"))
      return said(name === "kind" ? "runKind" : "runStatus", v);
    if (typeof v === "string") return formats.day(v);
    if (Array.isArray(v)) return v.map((x) => text(name, x)).join(", ");
    if (typeof v === "object" && v !== null)
      return Object.entries(v)
        .map(([k, x]) => `${said("stat", k)}: ${text(k, x)}`)
        .join("; ");
    return String(v);
  };
  return Object.entries(stats)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([name, v]) => ({ name, value: text(name, v) }));
}

/**
 * GET /changes: the change feed with the CLI's filters, page by page from where the last page
 * stopped (keyset: src/web/pages/changes-pager.ts); GET /changes.csv and
 * /changes.xlsx: the same rows, every page, as downloads streamed from a cursor.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FeedRow } from "../../changes/sql/change-feed.ts";
import { feedPage } from "../../changes/sql/change-feed.ts";
import type { Sql } from "../../db/connect.ts";
import { inOneRead } from "../../db/one-read.ts";
import type { Translator } from "../../i18n/messages.ts";
import { unreadWords } from "../../i18n/unread.ts";
import { valueText } from "../../i18n/values.ts";
import { loadWatchLists } from "../../run/lists.ts";
import { downloadBody } from "../download.ts";
import type { RegisterAccountPages } from "../kit.ts";
import { writeChangesCsv, writeChangesXlsx } from "./changes-export.ts";
import { type ChangesQuery, FEED, readChangesQuery } from "./changes-filter.ts";
import { type ChangesPage, changesLinks, filtersOf, pageOf } from "./changes-pager.ts";

const PAGE_SIZE = 100;

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export const registerChangesPages: RegisterAccountPages = (app, kit) => {
  const readQuery = (request: FastifyRequest) =>
    readChangesQuery(request.deps.db.sql, request.query as Record<string, unknown>, {
      now: request.deps.now(),
      timeZone: request.deps.config.tz,
      i18n: kit.i18n(request),
    });

  app.get("/changes", { schema: FEED }, async (request, reply) => {
    const q = await readQuery(request);
    const i18n = kit.i18n(request);
    // The lists of the form and the page's rows in one read-only transaction (one begin, one commit).
    const { lists, page } = await inOneRead(request.deps.db.sql, async (sql) => {
      const [lists, page] = await Promise.all([
        loadWatchLists(sql, { includeDeleted: true }),
        q.problems.length > 0 ? null : readPage(sql, q),
      ]);
      return { lists, page };
    });
    const base = { title: i18n.t("changes.title"), form: q.form, lists, problems: q.problems };
    if (page === null) {
      return kit.render(request, reply, "changes", { ...base, rows: [], links: null, downloads: null }, 400);
    }
    const filters = filtersOf(request.query as Record<string, unknown>);
    return kit.render(request, reply, "changes", {
      ...base,
      rows: page.rows.map((r) => ({ ...r, name: r.businessName?.trim() || "", ...cellsOf(i18n, r) })),
      links: changesLinks(filters, page),
      downloads: filters,
    });
  });

  const download = async (request: FastifyRequest, reply: FastifyReply, kind: "csv" | "xlsx") => {
    const q = await readQuery(request);
    if (q.problems.length > 0) {
      const i18n = kit.i18n(request);
      const message = i18n.t("changes.badFilter", { problems: q.problems.join("; ") });
      return kit.render(request, reply, "error", { title: i18n.t("changes.badFilter.title"), message }, 400);
    }
    const deps = request.deps;
    const write = kind === "csv" ? writeChangesCsv : writeChangesXlsx;
    const out = downloadBody(
      deps.log,
      "changes download",
      (to) => write(deps.db.sql, q.filter, to),
      kind === "xlsx",
    );
    const name = `regwatch-changes-${q.filter.since}${q.filter.until ? `-${q.filter.until}` : ""}.${kind}`;
    return reply
      .type(kind === "csv" ? "text/csv; charset=utf-8" : XLSX_TYPE)
      .header("content-disposition", `attachment; filename="${name}"`)
      .send(out);
  };

  app.get("/changes.csv", { schema: FEED }, (request, reply) => download(request, reply, "csv"));
  app.get("/changes.xlsx", { schema: FEED }, (request, reply) => download(request, reply, "xlsx"));
};

/** The page the query names, read by keyset (one row more than shown, to know whether the feed goes on). */
async function readPage(sql: Sql, q: ChangesQuery): Promise<ChangesPage> {
  let position = q.position;
  let found = await feedPage(sql, q.filter, { ...position, limit: PAGE_SIZE + 1 });
  if (position.side === "before" && position.key !== null && found.rows.length < PAGE_SIZE) {
    // Newer rows ran out before a page was full: the newest page, full, rather than a short one.
    position = { key: null, side: "after" };
    found = await feedPage(sql, q.filter, { ...position, limit: PAGE_SIZE + 1 });
  }
  return pageOf(found, position, PAGE_SIZE);
}

/**
 * A row's before and after in the reader's language: an old value the file did not give says so,
 * and a change whose values were not read says it changed and why.
 */
function cellsOf(i18n: Translator, r: FeedRow): { before: string; after: string } {
  if (!r.valuesRead)
    return { before: "", after: i18n.t("changes.notRead", { why: unreadWords(i18n, r.heading, r) }) };
  const shown = (v: unknown) => (v === null || v === undefined ? "" : valueText(i18n, r.heading, v));
  return {
    before: r.oldValueKnown ? shown(r.oldValue) : i18n.t("value.oldUnknown"),
    after: shown(r.newValue),
  };
}

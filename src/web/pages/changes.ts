/**
 * GET /changes: the change feed with the CLI's filters, page by page from where the last page
 * stopped (keyset: src/web/pages/changes-pager.ts); GET /changes.csv and
 * /changes.xlsx: the same rows, every page, as downloads streamed from a cursor, in the reader's
 * language (`?format=machine`: the column keys and codes).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { feedPage } from "../../changes/sql/change-feed.ts";
import type { Sql } from "../../db/connect.ts";
import { inOneRead } from "../../db/one-read.ts";
import { loadWatchLists } from "../../run/lists.ts";
import { downloadBody } from "../download.ts";
import type { RegisterAccountPages } from "../kit.ts";
import { cellsOf } from "./changes-cells.ts";
import { writeChangesCsv, writeChangesXlsx } from "./changes-export.ts";
import { type ChangesQuery, FEED, readChangesQuery } from "./changes-filter.ts";
import { type ChangesPage, changesLinks, filtersOf, pageOf } from "./changes-pager.ts";
import { audienceOf } from "./download-audience.ts";

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
    const i18n = kit.i18n(request);
    const wanted = audienceOf(request.query as Record<string, unknown>, i18n);
    const problems = [...q.problems, ...(wanted.problem !== undefined ? [wanted.problem] : [])];
    if (problems.length > 0 || wanted.audience === undefined) {
      const message = i18n.t("changes.badFilter", { problems: problems.join("; ") });
      return kit.render(request, reply, "error", { title: i18n.t("changes.badFilter.title"), message }, 400);
    }
    const deps = request.deps;
    const words = { audience: wanted.audience, i18n };
    const write = kind === "csv" ? writeChangesCsv : writeChangesXlsx;
    const out = downloadBody(
      deps.log,
      "changes download",
      (to) => write(deps.db.sql, q.filter, to, words),
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

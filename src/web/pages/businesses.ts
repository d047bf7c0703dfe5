/**
 * GET /businesses/{tax_id}: a business's profile as of today, its values on a chosen day
 * (?as_of=YYYY-MM-DD, business_as_of), every change with its values, the lists it is on, its
 * alerts and its payment checks. GET /businesses?tax_id= (the layout's search box) leads there.
 */

import { givenNameLabel } from "../../changes/given-name.ts";
import { isValidDate, localDateTime } from "../../dates.ts";
import { saidIn } from "../../i18n/said-words.ts";
import { loadUnreadHeadings } from "../../payments/sql/unread-headings.ts";
import { readGivenNames } from "../../search/sql/given-names.ts";
import { foreignSaid, taxBaseOf, taxIdProblemSaid } from "../../taxid.ts";
import { givenNameSay } from "../given-names-view.ts";
import type { RegisterAccountPages } from "../kit.ts";
import { line, PAGE, query } from "../route-schemas.ts";
import {
  hasChanges,
  readBusinessAlerts,
  readBusinessAsOf,
  readBusinessLists,
  readBusinessProfile,
  readBusinessTimeline,
} from "../sql/business.ts";
import { readBusinessPaymentChecks } from "../sql/payments.ts";
import { lookupOffer, registerBusinessLookup, type ShowBusiness } from "./business-lookup.ts";
import {
  alertLines,
  asOfLines,
  businessHeader,
  listLines,
  profileLines,
  readerOf,
  timelineDays,
  withNewestStatus,
} from "./business-view.ts";
import { paymentCheckLines } from "./payments-view.ts";
import { pageLinks, QueryReader, splitPage } from "./query-reader.ts";

const SEARCH = { querystring: query({ tax_id: line(200) }) };
const SHOW = {
  params: { type: "object", properties: { taxId: line(40) }, required: ["taxId"] },
  querystring: query({ as_of: line(40), page: PAGE }),
};

const TIMELINE_PAGE = 200;
const ALERTS_SHOWN = 50;
const CHECKS_SHOWN = 50;

export const registerBusinessPages: RegisterAccountPages = async (app, kit) => {
  const show: ShowBusiness = async (request, reply, taxId, lookupProblem) => {
    const deps = request.deps;
    const sql = deps.db.sql;
    const i18n = kit.i18n(request);
    const q = new QueryReader(request.query as Record<string, unknown>, i18n);
    const today = localDateTime(deps.now(), deps.config.tz).date;
    const asOfText = q.text("as_of");
    const page = q.integer("page", 1, 1, 100_000);
    if (asOfText !== null && !isValidDate(asOfText)) {
      q.problems.push(i18n.t("query.notDate", { name: "as_of", value: asOfText }));
    }
    const asOf = asOfText !== null && isValidDate(asOfText) ? asOfText : today;
    const [profile, changed, givenNames] = await Promise.all([
      readBusinessProfile(sql, taxId, deps.config.registryTz),
      hasChanges(sql, taxId),
      readGivenNames(sql, [taxId]),
    ]);
    const given = givenNames.get(taxId);
    const lookup = await lookupOffer(request, i18n, taxId, profile, given, lookupProblem);
    const [lists, alerts, checks] = await Promise.all([
      readBusinessLists(sql, taxId),
      readBusinessAlerts(sql, taxId, ALERTS_SHOWN),
      readBusinessPaymentChecks(sql, taxId, CHECKS_SHOWN),
    ]);
    if (!profile && !changed && !given && lists.length === 0 && checks.length === 0) {
      return kit.render(
        request,
        reply,
        "business-unknown",
        {
          title: i18n.t("business.unknown.title"),
          message: i18n.t("business.unknownWords", { taxId }),
          taxId,
          lookup,
        },
        404,
      );
    }
    const [asOfValues, timeline, unread] = await Promise.all([
      readBusinessAsOf(sql, taxId, asOf),
      readBusinessTimeline(sql, taxId, { limit: TIMELINE_PAGE, offset: (page - 1) * TIMELINE_PAGE }),
      loadUnreadHeadings(sql, [taxId]),
    ]);
    const { rows, hasMore } = splitPage(timeline, TIMELINE_PAGE);
    const reader = readerOf(i18n);
    const header = businessHeader(taxId, profile, unread, reader);
    if (!header.name && given) header.name = givenNameLabel(given, givenNameSay(i18n));
    return kit.render(
      request,
      reply,
      "business",
      {
        title: i18n.t("business.title", { name: header.name || i18n.t("name.unknown"), taxId }),
        header,
        problems: q.problems,
        today,
        asOf,
        profile: profileLines(withNewestStatus(profile), unread, reader),
        asOfLines: asOfLines(asOfValues, reader),
        timeline: timelineDays(rows, reader),
        links: pageLinks(`/businesses/${taxId}`, request.query as Record<string, unknown>, page, hasMore),
        lists: listLines(lists),
        alerts: alertLines(alerts),
        checks: paymentCheckLines(checks, i18n),
        lookup,
      },
      q.problems.length > 0 ? 400 : 200,
    );
  };
  app.get("/businesses", { schema: SEARCH }, async (request, reply) => {
    const taxId = new QueryReader(request.query as Record<string, unknown>).text("tax_id") ?? "";
    const base = taxBaseOf(taxId);
    if (base) return reply.redirect(`/businesses/${base}`, 303);
    const i18n = kit.i18n(request);
    const foreign = foreignSaid(taxId);
    const message =
      taxId === ""
        ? i18n.t("search.empty")
        : foreign
          ? saidIn(i18n, foreign)
          : i18n.t("search.bad", { value: taxId });
    return kit.render(request, reply, "error", { title: i18n.t("search.title"), message }, 400);
  });

  app.get<{ Params: { taxId: string } }>("/businesses/:taxId", { schema: SHOW }, async (request, reply) => {
    const given = request.params.taxId;
    const taxId = taxBaseOf(given);
    const i18n = kit.i18n(request);
    const said = taxId === undefined ? foreignSaid(given) : taxIdProblemSaid(taxId);
    const problem = said
      ? saidIn(i18n, said)
      : taxId === undefined
        ? i18n.t("business.notTaxId.shape")
        : undefined;
    if (taxId === undefined || problem) {
      const message = i18n.t("business.notTaxId", { value: given, problem });
      return kit.render(request, reply, "error", { title: i18n.t("business.notTaxId.title"), message }, 400);
    }
    if (taxId !== given) return reply.redirect(`/businesses/${taxId}${queryOf(request.url)}`, 303);
    return show(request, reply, taxId);
  });
  await registerBusinessLookup(show)(app, kit);
};

function queryOf(url: string): string {
  const at = url.indexOf("?");
  return at < 0 ? "" : url.slice(at);
}

/**
 * GET /businesses/{tax_id}: a business's profile as of today, its values on a chosen day
 * (?as_of=YYYY-MM-DD, business_as_of), every change with its values, the lists it is on, its
 * alerts and its payment checks. GET /businesses?tax_id= (the layout's search box) leads there.
 */
import { isValidDate, localDateTime } from "../../dates.ts";
import {
  hasChanges,
  readBusinessAlerts,
  readBusinessAsOf,
  readBusinessLists,
  readBusinessProfile,
  readBusinessTimeline,
} from "../../db/console-business.ts";
import { readBusinessPaymentChecks } from "../../db/console-payments.ts";
import { readGivenNames } from "../../db/given-names.ts";
import { loadUnreadHeadings } from "../../db/unread-headings.ts";
import { shownName } from "../../feed/given-name.ts";
import { describeTaxIdProblem, taxBaseOf } from "../../taxid.ts";
import type { RegisterAccountPages } from "../kit.ts";
import { line, PAGE, query } from "../route-schemas.ts";
import { LOOKUP_TEXT, lookupOffer, registerBusinessLookup, type ShowBusiness } from "./business-lookup.ts";
import {
  alertLines,
  asOfLines,
  businessHeader,
  listLines,
  ORDER_UNKNOWN,
  profileLines,
  timelineDays,
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
    const q = new QueryReader(request.query as Record<string, unknown>);
    const today = localDateTime(deps.now(), deps.config.tz).date;
    const asOfText = q.text("as_of");
    const page = q.integer("page", 1, 1, 100_000);
    if (asOfText !== null && !isValidDate(asOfText)) {
      q.problems.push(`as_of "${asOfText}" is not a date: write it as YYYY-MM-DD`);
    }
    const asOf = asOfText !== null && isValidDate(asOfText) ? asOfText : today;
    const [profile, changed, givenNames] = await Promise.all([
      readBusinessProfile(sql, taxId),
      hasChanges(sql, taxId),
      readGivenNames(sql, [taxId]),
    ]);
    const given = givenNames.get(taxId);
    const lookup = await lookupOffer(
      request,
      taxId,
      profile,
      given,
      lookupProblem?.problem,
      lookupProblem?.typed,
    );
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
          title: LOOKUP_TEXT.notKnownTitle,
          message: LOOKUP_TEXT.notKnown.replace("{taxId}", taxId),
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
    const header = businessHeader(taxId, profile, unread);
    header.name = shownName(profile?.name, given);
    return kit.render(
      request,
      reply,
      "business",
      {
        title: `${header.name} (${taxId})`,
        header,
        problems: q.problems,
        today,
        asOf,
        profile: profileLines(profile?.headings ?? {}, unread),
        asOfLines: asOfLines(asOfValues),
        orderUnknown: ORDER_UNKNOWN,
        timeline: timelineDays(rows),
        links: pageLinks(`/businesses/${taxId}`, request.query as Record<string, unknown>, page, hasMore),
        lists: listLines(lists),
        alerts: alertLines(alerts),
        checks: paymentCheckLines(checks),
        lookup,
      },
      q.problems.length > 0 ? 400 : 200,
    );
  };
  app.get("/businesses", { schema: SEARCH }, async (request, reply) => {
    const taxId = new QueryReader(request.query as Record<string, unknown>).text("tax_id") ?? "";
    const base = taxBaseOf(taxId);
    if (base) return reply.redirect(`/businesses/${base}`, 303);
    return kit.render(
      request,
      reply,
      "error",
      {
        title: "No such tax id",
        message:
          taxId === ""
            ? "Enter a tax id (8 digits) or a tax number (xxxxxxxx-y-zz) to open a business."
            : `"${taxId}" is neither an 8-digit tax base number nor a tax number (xxxxxxxx-y-zz).`,
      },
      400,
    );
  });

  app.get<{ Params: { taxId: string } }>("/businesses/:taxId", { schema: SHOW }, async (request, reply) => {
    const given = request.params.taxId;
    const taxId = taxBaseOf(given);
    const problem =
      taxId === undefined ? "it is neither a tax base number nor a tax number" : describeTaxIdProblem(taxId);
    if (taxId === undefined || problem) {
      return kit.render(
        request,
        reply,
        "error",
        { title: "Not a tax id", message: `"${given}" cannot be a business's tax id: ${problem}.` },
        400,
      );
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

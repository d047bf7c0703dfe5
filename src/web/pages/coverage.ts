/**
 * GET /coverage: per list, a calendar of weeks (?weeks=N, 1 to 104, ending with the week of
 * ?end=YYYY-MM-DD, today by default) with covered, accepted, missing and invalid days marked,
 * and the gaps and invalid windows listed.
 */
import { lastCompleteDay, localDateTime } from "../../dates.ts";
import type { RegisterAccountPages } from "../kit.ts";
import { line, PAGE, query } from "../route-schemas.ts";
import { readCoverageDetail } from "../sql/coverage.ts";

const COVERAGE = { querystring: query({ weeks: PAGE, end: line(40) }) };

import { formatsFor } from "../../i18n/format.ts";
import { DAY_MARKS, DAY_STATES, listCalendar } from "./coverage-view.ts";
import { QueryReader } from "./query-reader.ts";

const DEFAULT_WEEKS = 12;

export const registerCoveragePages: RegisterAccountPages = (app, kit) => {
  app.get("/coverage", { schema: COVERAGE }, async (request, reply) => {
    const deps = request.deps;
    const i18n = kit.i18n(request);
    const q = new QueryReader(request.query as Record<string, unknown>, i18n);
    const weeks = q.integer("weeks", DEFAULT_WEEKS, 1, 104);
    const now = deps.now();
    const today = localDateTime(now, deps.config.tz).date;
    const lastComplete = lastCompleteDay(now, deps.config.registryTz);
    const end = q.date("end") ?? today;
    const lists = await readCoverageDetail(deps.db.sql);
    const words = { i18n, formats: formatsFor(i18n.locale, deps.config.tz) };
    return kit.render(
      request,
      reply,
      "coverage",
      {
        title: i18n.t("coverage.title"),
        problems: q.problems,
        weeks,
        end,
        today,
        lastComplete,
        legend: DAY_STATES.map((state) => ({ state, mark: DAY_MARKS[state] })),
        calendars: lists.map((l) => listCalendar(l, { lastComplete, today, weeks, end, words })),
      },
      q.problems.length > 0 ? 400 : 200,
    );
  });
};

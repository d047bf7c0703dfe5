/**
 * `/names`: the watched businesses the registry has not named yet, and one action that looks them
 * all up (reviewer or admin): one search each, by the registration number, an account or a given
 * name regwatch holds, within this month's quota. The page states the cost before anything is
 * spent; after the action it says how many got their name and how many searches are left.
 */
import type { FastifyRequest } from "fastify";
import { SearchQuotaError } from "../../api/search-client.ts";
import type { Translator } from "../../i18n/messages.ts";
import { type NameSearch, planNameSearches } from "../../search/name-plan.ts";
import { readUnnamedWatched } from "../../search/sql/unnamed.ts";
import { redactError } from "../../secrets.ts";
import { holdConnectionWhile } from "../hold-connection.ts";
import { type RegisterAccountPages, roleAtLeast } from "../kit.ts";
import { type Allowance, runNameSearches, searchAllowance } from "../registry-search.ts";
import { form, line, query } from "../route-schemas.ts";

/** Most searches one action spends (about 20 s at the registry's pace): a larger backlog takes several. */
export const NAMES_PER_ACTION = 500;
/** Businesses listed on the page. */
const LISTED = 200;

const PAGE = { querystring: query({ named: line(8), missed: line(8), left: line(8), stop: line(200) }) };
const LOOK_UP = { querystring: query(), body: form({}) };

export const registerNamesPages: RegisterAccountPages = (app, kit) => {
  app.get<{ Querystring: Record<string, string | undefined> }>(
    "/names",
    { schema: PAGE },
    async (request, reply) => {
      const i18n = kit.i18n(request);
      const { rows, total } = await readUnnamedWatched(request.deps.db.sql);
      const plan = planNameSearches(rows);
      const allowance = await searchAllowance(request.deps, i18n);
      const toSpend = Math.min(plan.searches.length, allowance.remaining, NAMES_PER_ACTION);
      const clueOf = new Map(plan.searches.map((s) => [s.taxId, s]));
      return kit.render(request, reply, "names", {
        title: i18n.t("unnamed.title"),
        done: doneMessage(i18n, request.query, allowance),
        summary:
          total === 0
            ? i18n.t("unnamed.none")
            : i18n.t("unnamed.summary", { total, searchable: plan.searches.length }),
        cost: toSpend > 0 ? costText(i18n, toSpend, plan.searches.length, allowance) : null,
        allowance,
        canLookUp: toSpend > 0 && roleAtLeast(request.user.role, "reviewer"),
        readerNote:
          toSpend > 0 && !roleAtLeast(request.user.role, "reviewer") ? i18n.t("unnamed.readerNote") : null,
        button: i18n.t("unnamed.button", { count: toSpend }),
        clueless:
          plan.clueless.length > 0 ? i18n.t("unnamed.clueless", { count: plan.clueless.length }) : null,
        rows: rows
          .slice(0, LISTED)
          .map((r) => ({ taxId: r.taxId, clue: clueText(i18n, clueOf.get(r.taxId)) })),
        more: total > LISTED ? i18n.t("unnamed.more", { shown: LISTED, total }) : null,
      });
    },
  );

  app.post(
    "/names/look-up",
    { schema: LOOK_UP, preHandler: kit.requireRole("reviewer") },
    async (request, reply) => {
      const deps = request.deps;
      const i18n = kit.i18n(request);
      const allowance = await searchAllowance(deps, i18n);
      if (!allowance.configured || allowance.remaining === 0) return reply.redirect("/names", 303);
      const { rows } = await readUnnamedWatched(deps.db.sql);
      const searches = planNameSearches(rows).searches.slice(
        0,
        Math.min(allowance.remaining, NAMES_PER_ACTION),
      );
      const outcome = await holdConnectionWhile(request, () => runNameSearches(deps, searches));
      if (outcome.stopped !== undefined && !(outcome.stopped instanceof SearchQuotaError))
        deps.log.warn({ err: redactError(outcome.stopped) }, "looking up unnamed businesses ended early");
      const result = new URLSearchParams({
        named: String(outcome.named.length),
        missed: String(outcome.missed.length),
        left: String(outcome.left.length),
      });
      if (outcome.stopped !== undefined) result.set("stop", stopReason(outcome.stopped));
      return reply.redirect(`/names?${result}`, 303);
    },
  );
};

function costText(i18n: Translator, toSpend: number, searchable: number, allowance: Allowance): string {
  const values = { count: toSpend, searchable, remaining: allowance.remaining, limit: allowance.limit };
  return toSpend < searchable ? i18n.t("unnamed.costPart", values) : i18n.t("unnamed.cost", values);
}

function clueText(i18n: Translator, search: NameSearch | undefined): string {
  if (!search) return i18n.t("unnamed.clue.none");
  const kind =
    search.kind === "reg-number" ? "regNumber" : search.kind === "bank-account" ? "account" : "name";
  return i18n.t(`unnamed.clue.${kind}`, { value: search.value });
}

/** The quota's end is said in words; any other failure by the registry's redacted message. */
function stopReason(error: unknown): string {
  return error instanceof SearchQuotaError ? "quota" : redactError(error).slice(0, 200);
}

function doneMessage(
  i18n: Translator,
  q: FastifyRequest<{ Querystring: Record<string, string | undefined> }>["query"],
  allowance: Allowance,
): string | null {
  if (q.named === undefined) return null;
  const count = (name: string) => Math.max(0, Number.parseInt(q[name] ?? "0", 10) || 0);
  const parts = [
    i18n.t("unnamed.done.named", { count: count("named") }),
    count("missed") > 0 ? i18n.t("unnamed.done.missed", { count: count("missed") }) : null,
    count("left") > 0
      ? q.stop === "quota"
        ? i18n.t("unnamed.done.leftQuota", { count: count("left") })
        : i18n.t("unnamed.done.leftFailed", { count: count("left"), why: q.stop ?? "" })
      : null,
    i18n.t("unnamed.done.remaining", { remaining: allowance.remaining, limit: allowance.limit }),
  ];
  return parts.filter((p): p is string => p !== null).join(" ");
}

/**
 * The header's search box: GET /search?q= finds a business by tax number (straight to its page),
 * by registration number or by name among the names regwatch holds (the registry's, then those
 * people and files gave); POST /search/registry (reviewer or admin) spends one request of the
 * monthly quota on the registry's own search, which the page showed before the button.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { checkName, checkRegistrationNumber, type SearchKind } from "../../api/search-query.ts";
import { givenNameLabel } from "../../changes/given-name.ts";
import type { Translator } from "../../i18n/messages.ts";
import { saidIn } from "../../i18n/said-words.ts";
import { describeTaxIdProblem, foreignSaid, normaliseTaxId, taxBaseOf } from "../../taxid.ts";
import { givenNameSay } from "../given-names-view.ts";
import { type RegisterAccountPages, roleAtLeast } from "../kit.ts";
import { searchAllowance, searchRegistry } from "../registry-search.ts";
import { form, line, query } from "../route-schemas.ts";
import { findByRegistrationNumber, searchStoredNames } from "../sql/name-search.ts";

const MAX_HITS = 50;
const SEARCH = { querystring: query({ q: line(200) }) };
const REGISTRY = { querystring: query(), body: form({ q: line(200), kind: line(20) }, ["q", "kind"]) };

/** How a typed text is searched: a tax number opens its page; the rest is a registration number or a name. */
export function readSearchText(
  raw: string,
):
  | { kind: "tax_id"; taxId: string }
  | { kind: SearchKind & ("reg-number" | "name"); value: string }
  | { kind: "empty" | "too_short" | "foreign"; value: string } {
  const q = raw.trim().replace(/\s+/g, " ");
  if (q === "") return { kind: "empty", value: q };
  const base = normaliseTaxId(q);
  if (base && describeTaxIdProblem(base) === undefined) return { kind: "tax_id", taxId: base };
  if (foreignSaid(q)) return { kind: "foreign", value: q };
  const reg = checkRegistrationNumber(q);
  if (reg.ok) return { kind: "reg-number", value: reg.value };
  const name = checkName(q);
  return name.ok ? { kind: "name", value: name.value } : { kind: "too_short", value: q };
}

export const registerSearchPages: RegisterAccountPages = (app, kit) => {
  async function show(request: FastifyRequest, reply: FastifyReply, q: string, registry?: RegistryShown) {
    const deps = request.deps;
    const i18n = kit.i18n(request);
    const read = readSearchText(q);
    if (read.kind === "tax_id" && !registry) return reply.redirect(`/businesses/${read.taxId}`, 303);
    let stored: ReturnType<typeof hitLines> = [];
    if (read.kind === "name")
      stored = hitLines(await searchStoredNames(deps.db.sql, read.value, MAX_HITS), i18n);
    if (read.kind === "reg-number") {
      const found = await findByRegistrationNumber(deps.db.sql, read.value);
      if (found.length === 1 && !registry) return reply.redirect(`/businesses/${found[0]}`, 303);
      stored = found.map((taxId) => ({ taxId, label: taxId, registrationNumber: read.value }));
    }
    const searchable = read.kind === "name" || read.kind === "reg-number";
    const allowance = searchable ? await searchAllowance(deps, i18n) : null;
    const typed = { q: q.trim() };
    return kit.render(request, reply, "search", {
      title: i18n.t("find.title"),
      q: q.trim(),
      kind: read.kind,
      message:
        read.kind === "empty"
          ? i18n.t("find.empty")
          : read.kind === "foreign"
            ? saidIn(i18n, foreignSaid(read.value)!)
            : read.kind === "too_short"
              ? i18n.t("find.tooShort", typed)
              : null,
      storedHeading: searchable
        ? stored.length > 0
          ? i18n.t("find.storedSome", typed)
          : i18n.t("find.storedNone", typed)
        : null,
      stored,
      allowance,
      canSearch:
        roleAtLeast(request.user.role, "reviewer") &&
        Boolean(allowance?.configured && allowance.remaining > 0),
      readerNote: roleAtLeast(request.user.role, "reviewer") ? null : i18n.t("find.readerCannot"),
      registry: registry ?? null,
    });
  }

  app.get<{ Querystring: { q?: string } }>("/search", { schema: SEARCH }, (request, reply) =>
    show(request, reply, typeof request.query.q === "string" ? request.query.q : ""),
  );

  app.post<{ Body: { q: string; kind: string } }>(
    "/search/registry",
    { schema: REGISTRY, preHandler: kit.requireRole("reviewer") },
    async (request, reply) => {
      const read = readSearchText(request.body.q);
      if (read.kind !== "name" && read.kind !== "reg-number") return show(request, reply, request.body.q);
      const i18n = kit.i18n(request);
      const answer = await searchRegistry(request.deps, read.kind, read.value, i18n);
      const q = request.body.q.trim();
      const registry: RegistryShown = answer.ok
        ? {
            heading:
              answer.records.length > 0
                ? i18n.t("find.registrySome", { q })
                : i18n.t("find.registryNone", { q }),
            problem: null,
            hits: answer.records.flatMap((r) => {
              const taxId = r.tax_number ? taxBaseOf(r.tax_number) : undefined;
              if (!taxId) return [];
              return [
                {
                  taxId,
                  label: r.full_name ?? r.short_name ?? taxId,
                  registrationNumber: r.registration_number ?? null,
                },
              ];
            }),
          }
        : { heading: null, problem: answer.problem, hits: [] };
      return show(request, reply, q, registry);
    },
  );
};

interface RegistryShown {
  heading: string | null;
  problem: string | null;
  hits: { taxId: string; label: string; registrationNumber: string | null }[];
}

function hitLines(hits: Awaited<ReturnType<typeof searchStoredNames>>, i18n: Translator) {
  return hits.map((h) => ({
    taxId: h.taxId,
    label:
      h.name ??
      (h.givenName && h.givenSource
        ? givenNameLabel({ name: h.givenName, source: h.givenSource }, givenNameSay(i18n))
        : h.taxId),
    registrationNumber: h.registrationNumber,
  }));
}

/**
 * "Look it up" on the page of a business the registry's search has not returned yet (no search
 * record): POST /businesses/{tax_id}/lookup (reviewer or admin; CSRF and `_account` as every
 * form) spends one search request, by the registration number regwatch holds or the one typed,
 * else by the business's name, and keeps every record of the answer as `regwatch lookup` does. The
 * registry cannot be searched by tax number, so the answer's record of this tax number (if any)
 * is what fills the business's profile.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Translator } from "../../i18n/messages.ts";
import type { GivenName } from "../../search/sql/given-names.ts";
import { describeTaxIdProblem, taxBaseOf } from "../../taxid.ts";
import { type PageKit, type RegisterAccountPages, roleAtLeast } from "../kit.ts";
import { type Allowance, searchAllowance, searchRegistry } from "../registry-search.ts";
import { form, line, query } from "../route-schemas.ts";
import type { BusinessProfileRow } from "../sql/business.ts";
import { readSearchText } from "./search.ts";

const LOOKUP = {
  params: { type: "object", properties: { taxId: line(40) }, required: ["taxId"] },
  querystring: query(),
  body: form({ value: line(200) }),
};

export interface LookupOffer {
  taxId: string;
  value: string;
  canLookUp: boolean;
  allowance: Allowance;
  problem: string | null;
}

/** The offer when no search record of the business is kept; null when one is. */
export async function lookupOffer(
  request: FastifyRequest,
  i18n: Translator,
  taxId: string,
  profile: BusinessProfileRow | undefined,
  given: GivenName | undefined,
  asked?: { problem: string; typed: string },
): Promise<LookupOffer | null> {
  if (profile?.searchedAt) return null;
  const allowance = await searchAllowance(request.deps, i18n);
  const problem = asked?.problem ?? null;
  return {
    taxId,
    value: asked?.typed ?? profile?.registrationNumber ?? given?.name ?? "",
    canLookUp: roleAtLeast(request.user.role, "reviewer") && allowance.configured && allowance.remaining > 0,
    allowance,
    problem,
  };
}

export type ShowBusiness = (
  request: FastifyRequest,
  reply: FastifyReply,
  taxId: string,
  lookupProblem?: { problem: string; typed: string },
) => Promise<FastifyReply>;

export function registerBusinessLookup(show: ShowBusiness): RegisterAccountPages {
  return (app, kit: PageKit) => {
    app.post<{ Params: { taxId: string }; Body: { value?: string } }>(
      "/businesses/:taxId/lookup",
      { schema: LOOKUP, preHandler: kit.requireRole("reviewer") },
      async (request, reply) => {
        const taxId = taxBaseOf(request.params.taxId);
        const i18n = kit.i18n(request);
        if (!taxId || describeTaxIdProblem(taxId)) return reply.callNotFound();
        const typed = (request.body.value ?? "").trim();
        const read = readSearchText(typed);
        if (read.kind !== "reg-number" && read.kind !== "name") {
          return show(request, reply, taxId, {
            problem: i18n.t("lookup.badValue", { value: typed }),
            typed,
          });
        }
        const answer = await searchRegistry(request.deps, read.kind, read.value, i18n);
        if (!answer.ok) return show(request, reply, taxId, { problem: answer.problem, typed });
        const found = answer.records.some((r) => r.tax_number && taxBaseOf(r.tax_number) === taxId);
        if (found) return reply.redirect(`/businesses/${taxId}`, 303);
        const problem = i18n.t("lookup.missed", { value: read.value, taxId, count: answer.records.length });
        return show(request, reply, taxId, { problem, typed });
      },
    );
  };
}

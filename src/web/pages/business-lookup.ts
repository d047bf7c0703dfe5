/**
 * "Look it up" on the page of a business the registry's search has not returned yet (no search
 * record): POST /businesses/{tax_id}/lookup (reviewer or admin; CSRF and `_account` as every
 * form) spends one search request, by the registration number regwatch holds or the one typed,
 * else by the business's name, and keeps every record of the answer as `regwatch lookup` does. The
 * registry cannot be searched by tax number, so the answer's record of this tax number (if any)
 * is what fills the business's profile.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { BusinessProfileRow } from "../../db/console-business.ts";
import type { GivenName } from "../../db/given-names.ts";
import { describeTaxIdProblem, taxBaseOf } from "../../taxid.ts";
import { type PageKit, type RegisterAccountPages, roleAtLeast } from "../kit.ts";
import { type Allowance, fill, searchAllowance, searchRegistry } from "../registry-search.ts";
import { form, line, query } from "../route-schemas.ts";
import { readSearchText } from "./search.ts";

/** User-visible sentences of this module ({…} are filled in). */
export const LOOKUP_TEXT = {
  heading: "Not looked up in the registry yet",
  explain:
    "The registry has not been asked about this business, so its own name and record are not known here. The registry searches by registration number or name, not by tax number: give the one you know.",
  field: "Registration number or name",
  button: "Look it up",
  readerNote: "A reviewer or admin can look this business up in the registry.",
  notKnownTitle: "Business not known",
  notKnown:
    "regwatch knows nothing of {taxId}: it is on no list, no change, search record or file names it and no payment check named it.",
  missed:
    'The registry\'s answer for "{value}" holds no business with tax number {taxId}; its {count} record(s) were kept.',
  badValue: '"{value}" is neither a registration number nor a name of at least 3 letters.',
} as const;

const LOOKUP = {
  params: { type: "object", properties: { taxId: line(40) }, required: ["taxId"] },
  querystring: query(),
  body: form({ value: line(200) }),
};

export interface LookupOffer {
  text: typeof LOOKUP_TEXT;
  taxId: string;
  value: string;
  canLookUp: boolean;
  allowance: Allowance;
  problem: string | null;
}

/** The offer when no search record of the business is kept; null when one is. */
export async function lookupOffer(
  request: FastifyRequest,
  taxId: string,
  profile: BusinessProfileRow | undefined,
  given: GivenName | undefined,
  problem: string | null = null,
  typed?: string,
): Promise<LookupOffer | null> {
  if (profile?.searchedAt) return null;
  const allowance = await searchAllowance(request.deps);
  return {
    text: LOOKUP_TEXT,
    taxId,
    value: typed ?? profile?.registrationNumber ?? given?.name ?? "",
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
        if (!taxId || describeTaxIdProblem(taxId)) return reply.callNotFound();
        const typed = (request.body.value ?? "").trim();
        const read = readSearchText(typed);
        if (read.kind !== "reg-number" && read.kind !== "name") {
          return show(request, reply, taxId, {
            problem: fill(LOOKUP_TEXT.badValue, { value: typed }),
            typed,
          });
        }
        const answer = await searchRegistry(request.deps, read.kind, read.value);
        if (!answer.ok) return show(request, reply, taxId, { problem: answer.problem, typed });
        const found = answer.records.some((r) => r.tax_number && taxBaseOf(r.tax_number) === taxId);
        if (found) return reply.redirect(`/businesses/${taxId}`, 303);
        const problem = fill(LOOKUP_TEXT.missed, { value: read.value, taxId, count: answer.records.length });
        return show(request, reply, taxId, { problem, typed });
      },
    );
  };
}

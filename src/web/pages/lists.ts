/**
 * GET /lists: desired lists against the remote lists with the reconcile plan, read-only. The
 * plan is made from what the last reconcile or sync stored of the remote lists (no request to
 * the registry); the page says when each list's items were read.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { PageKit, RegisterAccountPages } from "../kit.ts";
import { roleAtLeast } from "../kit.ts";
import { line, query } from "../route-schemas.ts";
import { appliedMessage, applyView } from "./lists-apply.ts";
import { planFromStored } from "./lists-plan.ts";
import { listsPageView } from "./lists-view.ts";

/** The lists page; `extra` carries the add form's refusal and what was typed into it. */
export async function showListsPage(
  request: FastifyRequest,
  reply: FastifyReply,
  kit: PageKit,
  extra: { applied?: string | null; formError?: string; typed?: object } = {},
  status = 200,
) {
  const deps = request.deps;
  const i18n = kit.i18n(request);
  const stored = await planFromStored(deps.db.sql, deps.config, deps.now());
  const page = {
    title: i18n.t("lists.title"),
    ...listsPageView(stored, i18n),
    ...applyView(stored, deps, i18n),
    isAdmin: roleAtLeast(request.user.role, "admin"),
    applied: null,
    ...extra,
  };
  return kit.render(request, reply, "lists", page, status);
}

export const registerListsPages: RegisterAccountPages = (app, kit) => {
  app.get<{ Querystring: { applied?: string; status?: string } }>(
    "/lists",
    { schema: { querystring: query({ applied: line(20), status: line(20) }) } },
    (request, reply) =>
      showListsPage(request, reply, kit, { applied: appliedMessage(request.query, kit.i18n(request)) }),
  );
};

/**
 * GET /lists: desired lists against the remote lists with the reconcile plan, read-only. The
 * plan is made from what the last reconcile or sync stored of the remote lists (no request to
 * the registry); the page says when each list's items were read.
 */
import type { RegisterAccountPages } from "../kit.ts";
import { PLAIN_GET } from "../route-schemas.ts";
import { planFromStored } from "./lists-plan.ts";
import { listsPageView } from "./lists-view.ts";

export const registerListsPages: RegisterAccountPages = (app, kit) => {
  app.get("/lists", { schema: PLAIN_GET }, async (request, reply) => {
    const deps = request.deps;
    const stored = await planFromStored(deps.db.sql, deps.config, deps.now());
    return kit.render(request, reply, "lists", {
      title: kit.i18n(request).t("lists.title"),
      ...listsPageView(stored),
    });
  });
};

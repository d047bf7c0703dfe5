/**
 * The account switch (registered in fleet mode only). GET /account?q=: a search among the user's
 * own accounts (account-search.ts), a bounded list of matches each with its own switch button, for
 * users given more accounts than a select can show; a plain GET form, so it works without script.
 * POST /account: the session shows another of the user's accounts from its next page on. An
 * account the user was not given is refused (403) and nothing changes; the global CSRF hook has
 * checked the form's `_csrf` before this runs.
 */
import { setSessionAccount } from "../../console/sessions.ts";
import { searchAccounts } from "../account-search.ts";
import { safeReturn } from "../alert-actions.ts";
import type { RegisterPages } from "../kit.ts";
import { form, line, query } from "../route-schemas.ts";

const SWITCH = { querystring: query(), body: form({ account: line(200), return: line(2000) }) };
const FIND = { querystring: query({ q: line(200), return: line(2000) }) };

export const registerAccountSwitch: RegisterPages = (app, deps, kit) => {
  app.get<{ Querystring: { q?: string; return?: string } }>(
    "/account",
    { schema: FIND },
    async (request, reply) => {
      // The user's accounts as read with the session on this very request (none: an empty list).
      const found = searchAccounts(request.accountView?.choices ?? [], request.query.q);
      return kit.render(request, reply, "account", {
        title: kit.i18n(request).t("accountPage.title"),
        found,
        back: safeReturn(request.query.return, "/"),
      });
    },
  );

  app.post<{ Body: Record<string, unknown> }>("/account", { schema: SWITCH }, async (request, reply) => {
    const body = request.body ?? {};
    const wanted = typeof body.account === "string" ? body.account.slice(0, 64) : "";
    // The user's accounts as read with the session on this very request (none: an empty list).
    const choices = request.accountView?.choices ?? [];
    if (!choices.includes(wanted)) {
      return kit.render(
        request,
        reply,
        "error",
        {
          title: kit.i18n(request).t("error.role.title"),
          message: kit.i18n(request).t("error.accountNotGiven", { user: request.user.name, account: wanted }),
        },
        403,
      );
    }
    await setSessionAccount(deps.db.sql, request.webSession!.id, wanted);
    deps.log.info({ user: request.user.name, account: wanted }, "console account switched");
    return reply.redirect(safeReturn(body.return, "/"), 303);
  });
};

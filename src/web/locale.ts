/**
 * The language of a console page and the routes that change it. A signed-in user's choice is
 * stored on the user (console_users.locale) and set from the header's switch (POST /language,
 * checked by the global CSRF hook); the sign-in page's switch (POST /login/language, with the
 * sign-in form's double-submit token) sets a cookie. Without a choice: the browser's
 * Accept-Language, else REGWATCH_LOCALE.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { setConsoleLocale } from "../console/users.ts";
import { isLocale, LOCALE_COOKIE, type Locale, pickLocale } from "../i18n/locales.ts";
import { type Translator, translatorFor } from "../i18n/messages.ts";
import { safeReturn } from "./alert-actions.ts";
import type { RegisterPages, WebDeps } from "./kit.ts";
import { form, line, query } from "./route-schemas.ts";
import { LOGIN_CSRF_COOKIE, tokensMatch } from "./session-tokens.ts";

const YEAR_S = 365 * 86_400;

export function readerLocale(request: FastifyRequest, fallback: Locale): Locale {
  const header = request.headers["accept-language"];
  return pickLocale({
    user: request.webSession ? request.user?.locale : undefined,
    cookie: request.cookies?.[LOCALE_COOKIE],
    acceptLanguage: Array.isArray(header) ? header.join(",") : header,
    fallback,
  });
}

/** The translator of the request's reader. */
export function readerI18n(request: FastifyRequest, fallback: Locale): Translator {
  return translatorFor(readerLocale(request, fallback));
}

const SWITCH = { querystring: query(), body: form({ locale: line(10), return: line(2000) }) };

export const registerLanguageSwitch: RegisterPages = (app, deps, kit) => {
  const refuse = (request: FastifyRequest, reply: FastifyReply, given: string) => {
    const i18n = readerI18n(request, deps.config.locale);
    return kit.render(
      request,
      reply,
      "error",
      {
        title: i18n.t("error.language.title"),
        message: i18n.t("error.language.message", { locale: given }),
      },
      400,
    );
  };

  app.post<{ Body: Record<string, unknown> }>("/language", { schema: SWITCH }, async (request, reply) => {
    const body = request.body ?? {};
    const wanted = typeof body.locale === "string" ? body.locale : "";
    if (!isLocale(wanted)) return refuse(request, reply, wanted);
    await setConsoleLocale(deps.db.sql, request.user.name, wanted, null); // their own: any user may
    request.user.locale = wanted;
    remember(reply, request, deps, wanted);
    return reply.redirect(safeReturn(body.return, "/"), 303);
  });

  app.post<{ Body: Record<string, unknown> }>(
    "/login/language",
    { schema: SWITCH },
    async (request, reply) => {
      const body = request.body ?? {};
      // The sign-in form's own token: a foreign page cannot choose the language for this browser.
      if (!tokensMatch(body._csrf, request.cookies[LOGIN_CSRF_COOKIE])) {
        const i18n = readerI18n(request, deps.config.locale);
        return kit.render(
          request,
          reply,
          "error",
          { title: i18n.t("error.csrf.title"), message: i18n.t("error.csrf.login") },
          403,
        );
      }
      const wanted = typeof body.locale === "string" ? body.locale : "";
      if (!isLocale(wanted)) return refuse(request, reply, wanted);
      remember(reply, request, deps, wanted);
      return reply.redirect("/login", 303);
    },
  );
};

function remember(reply: FastifyReply, request: FastifyRequest, deps: WebDeps, locale: Locale): void {
  reply.setCookie(LOCALE_COOKIE, locale, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: deps.config.webSecureCookies || request.protocol === "https",
    maxAge: YEAR_S,
  });
}

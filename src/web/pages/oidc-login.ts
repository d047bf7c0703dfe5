/**
 * GET /login/oidc and its callback: company sign-in. The start saves what the callback must match
 * (state, nonce, PKCE verifier) under the hash of a random token given to the browser in a cookie
 * scoped to /login/oidc, then sends the browser to the provider. The callback takes that row once
 * (a replayed callback finds none), lets openid-client check the answer, maps the ID token's claims
 * to a role and accounts, refreshes the person's console user and opens an ordinary session.
 * Refusals are pages that say why; no token is stored or logged.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { OidcConfig } from "../../config-oidc.ts";
import { upsertExternalUser } from "../../console/external-users.ts";
import { savePendingOidcLogin, takePendingOidcLogin } from "../../console/oidc-logins.ts";
import { mapClaims, nameFromClaims } from "../../console/oidc-roles.ts";
import { USER_NAME } from "../../console/users-admin.ts";
import type { PageKit, WebDeps } from "../kit.ts";
import { OidcRefusal, type OidcSide } from "../oidc-client.ts";
import { line, query } from "../route-schemas.ts";
import { openSession, secureCookies } from "../session-start.ts";
import { newToken, sessionIdOf } from "../session-tokens.ts";

export const OIDC_COOKIE = "regwatch_oidc";
const PENDING_MS = 10 * 60_000;
/**
 * Sign-ins under way one address may start per minute (finished ones no longer count): a person
 * needs a few, an office behind one address signing in at nine rarely has twenty at the provider
 * at once; beyond it rows stop growing (at most 200 per address live, each lapsing in ten minutes).
 */
const START_LIMIT = { max: 20, windowSeconds: 60 } as const;

const START = { querystring: query() };
const CALLBACK = {
  querystring: query({ code: line(4096), state: line(1024), iss: line(2000), error: line(200) }),
};

interface CallbackQuery {
  error?: string;
  error_description?: unknown;
}

/** An error page whose way back is the sign-in page (there is no inbox to go back to). */
export function signInRefusal(
  kit: PageKit,
  request: FastifyRequest,
  reply: FastifyReply,
  page: { title: string; message: string },
  status: number,
): Promise<FastifyReply> {
  const backText = kit.i18n(request).t("oidc.startAgain");
  return kit.render(request, reply, "error", { ...page, backHref: "/login", backText }, status);
}

export function registerOidcPages(
  app: Parameters<import("../kit.ts").RegisterPages>[0],
  deps: WebDeps,
  kit: PageKit,
  oidc: OidcConfig,
  side: OidcSide,
): void {
  const refuse = (request: FastifyRequest, reply: FastifyReply, message: string, status = 403) =>
    signInRefusal(kit, request, reply, { title: kit.i18n(request).t("oidc.refused.title"), message }, status);

  app.get("/login/oidc", { schema: START }, async (request, reply) => {
    let start: Awaited<ReturnType<OidcSide["start"]>>;
    try {
      start = await side.start();
    } catch (error) {
      if (!(error instanceof OidcRefusal)) throw error;
      deps.log.warn({ err: error.message }, "company sign-in could not start");
      const i18n = kit.i18n(request);
      const page = {
        title: i18n.t("oidc.unreachable.title"),
        message: i18n.t("oidc.unreachable.message", { reason: error.message }),
      };
      return signInRefusal(kit, request, reply, page, 502);
    }
    const token = newToken();
    const now = deps.now();
    const pending = { ...start, id: sessionIdOf(token), address: request.ip, now };
    const saved = await savePendingOidcLogin(
      deps.db.sql,
      { ...pending, expiresAt: new Date(now.getTime() + PENDING_MS) },
      START_LIMIT,
    );
    if (!saved.saved) {
      deps.log.warn({ address: request.ip }, "company sign-in: too many starts from one address");
      reply.header("retry-after", String(saved.retryAfterSeconds));
      const i18n = kit.i18n(request);
      const minutes = Math.ceil(saved.retryAfterSeconds / 60);
      const page = {
        title: i18n.t("oidc.tooMany.title"),
        message: i18n.t("oidc.tooMany.message", { minutes }),
      };
      return signInRefusal(kit, request, reply, page, 429);
    }
    // Lax: the provider sends the browser back with a top-level GET from its own site.
    reply.setCookie(OIDC_COOKIE, token, {
      path: "/login/oidc",
      httpOnly: true,
      sameSite: "lax",
      secure: secureCookies(request, deps),
      maxAge: PENDING_MS / 1000,
    });
    return reply.redirect(start.url, 303);
  });

  app.get<{ Querystring: CallbackQuery }>(
    "/login/oidc/callback",
    { schema: CALLBACK },
    async (request, reply) => {
      const i18n = kit.i18n(request);
      const token = request.cookies[OIDC_COOKIE];
      reply.clearCookie(OIDC_COOKIE, { path: "/login/oidc" });
      const pending = token
        ? await takePendingOidcLogin(deps.db.sql, sessionIdOf(token), deps.now())
        : undefined;
      if (!pending) return refuse(request, reply, i18n.t("oidc.noPending"), 400);
      if (typeof request.query.error === "string") {
        const description = request.query.error_description;
        const error =
          typeof description === "string" ? `${request.query.error}: ${description}` : request.query.error;
        return refuse(request, reply, i18n.t("oidc.providerError", { error: error.slice(0, 300) }));
      }
      // The address the provider was given, with the answer's query: behind a proxy the request's own differs.
      const callbackUrl = new URL(oidc.redirectUrl);
      callbackUrl.search = request.url.split("?")[1] ?? "";
      let answer: Awaited<ReturnType<OidcSide["finish"]>>;
      try {
        answer = await side.finish(callbackUrl, pending);
      } catch (error) {
        if (!(error instanceof OidcRefusal)) throw error;
        deps.log.warn({ err: error.message, address: request.ip }, "company sign-in refused");
        return refuse(request, reply, i18n.t("oidc.checkFailed", { reason: error.message }));
      }
      const { claims } = answer;
      const name = nameFromClaims(oidc.nameClaims, claims);
      if (!name || !USER_NAME.test(name)) {
        return refuse(request, reply, i18n.t("oidc.noName", { claims: oidc.nameClaims.join(", ") }));
      }
      const access = mapClaims(oidc.rules, claims);
      if (!access) {
        deps.log.info({ username: name, address: request.ip }, "company sign-in: no mapped role");
        return refuse(request, reply, i18n.t("oidc.noRole", { name, provider: oidc.label }));
      }
      const subject = `${answer.issuer} ${String(claims.sub)}`;
      const user = await upsertExternalUser(deps.db.sql, { subject, name, ...access });
      if (user.kind === "name taken") {
        deps.log.warn({ username: name, address: request.ip }, "company sign-in: name held by another user");
        return refuse(request, reply, i18n.t("oidc.nameTaken", { name }));
      }
      return openSession(request, reply, deps, { id: user.userId, name, via: "oidc" });
    },
  );
}

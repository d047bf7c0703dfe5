/**
 * The two global hooks every route goes through: sign-in (a live session in the database, else
 * 303 to /login; with an accounts file, also the account the session shows, checked against the
 * user's accounts on every request) and CSRF (every POST carries the session's `_csrf`, else 403
 * and nothing runs; with an accounts file, an account page's POST also carries the `_account` it
 * was shown for, else 409). Registered before any page, so a page cannot forget either.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { liveSession, type SessionRow, touchSession } from "../console/sessions.ts";
import { wordOf } from "../i18n/words.ts";
import { type AccountDirectory, SchemaBehindError } from "./account-directory.ts";
import type { PageKit, Role, WebDeps } from "./kit.ts";
import { roleAtLeast } from "./kit.ts";
import { readerI18n } from "./locale.ts";
import type { Renderer } from "./render.ts";
import { SESSION_COOKIE, sessionIdOf, tokensMatch } from "./session-tokens.ts";

/** Paths that answer without a session. */
export function isPublicPath(path: string): boolean {
  return (
    path === "/login" ||
    path === "/login/language" ||
    path === "/login/oidc" ||
    path === "/login/oidc/callback" ||
    path === "/healthz" ||
    path.startsWith("/static/")
  );
}

/** Paths that read no account's data (the fleet's home only): open to a user given no account. */
const HOME_PATHS = new Set(["/users", "/logout", "/account", "/language"]);
const isHomePath = (path: string) => HOME_PATHS.has(path) || path.startsWith("/users/");

const TOUCH_EVERY_MS = 60_000;

export function installAuthHooks(
  app: FastifyInstance,
  deps: WebDeps,
  render: Renderer,
  accounts: AccountDirectory | undefined,
): void {
  app.decorateRequest("user", undefined as never);
  app.decorateRequest("webSession", undefined);
  app.decorateRequest("deps", undefined as never);
  app.decorateRequest("accountView", undefined);

  app.addHook("onRequest", async (request, reply) => {
    const path = request.url.split("?")[0]!;
    if (isPublicPath(path)) return;
    const token = request.cookies[SESSION_COOKIE];
    const now = deps.now();
    const session = token ? await liveSession(deps.db.sql, sessionIdOf(token), now) : undefined;
    if (!session) return reply.redirect("/login", 303);
    request.user = { name: session.userName, role: session.role, locale: session.locale };
    request.webSession = { id: session.id, csrfToken: session.csrfToken, external: session.external };
    if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      await touchSession(deps.db.sql, session.id, now);
    }
    if (!accounts) {
      request.deps = deps;
      return;
    }
    return showAccount(request, reply, session, { deps, render, accounts, path });
  });

  app.addHook("preHandler", async (request, reply) => {
    if (request.method !== "POST" || !request.webSession) return; // /login checks its own token
    if (request.routeOptions.config?.multipartCsrf) return; // the handler calls kit.verifyCsrf
    const body = request.body as Record<string, unknown> | undefined;
    if (!tokensMatch(body?._csrf, request.webSession.csrfToken))
      return refuseCsrf(request, reply, render, deps);
    // A form acts on the account it was shown for, or not at all (another tab may have switched).
    if (isHomePath(request.url.split("?")[0]!)) return;
    return refuseOtherAccount(request, reply, render, body?._account, deps);
  });
}

/**
 * Fleet mode: the request shows the session's account when the user still has it (the rows are
 * read with the session, so a revoked account is gone at the next request), else their first
 * account. A user with no account reaches only the home pages; anything else says so.
 */
async function showAccount(
  request: FastifyRequest,
  reply: FastifyReply,
  session: SessionRow,
  fleet: { deps: WebDeps; render: Renderer; accounts: AccountDirectory; path: string },
) {
  const choices = session.accounts.filter((name) => fleet.accounts.has(name));
  if (choices.length === 0) {
    request.deps = fleet.deps;
    if (isHomePath(fleet.path)) return;
    const i18n = readerI18n(request, fleet.deps.config.locale);
    return fleet.render(
      request,
      reply,
      "error",
      {
        title: i18n.t("error.noAccount.title"),
        message: i18n.t("error.noAccount.message", { user: session.userName }),
      },
      403,
    );
  }
  const current =
    session.currentAccount !== null && choices.includes(session.currentAccount)
      ? session.currentAccount
      : choices[0]!;
  request.accountView = { current, choices };
  // Held until the answer is sent (a download: until its client has it all or leaves).
  const open = await fleet.accounts.open(current, reply.raw).catch((error: unknown) => {
    // A schema behind still lets the user switch accounts or manage users from the home's pages.
    if (error instanceof SchemaBehindError && isHomePath(fleet.path)) return undefined;
    throw error;
  });
  request.deps = open ? { ...fleet.deps, db: open.db, config: open.config } : fleet.deps;
}

/**
 * Fleet mode: 409 when a form's `_account` is not the account the session shows now (the page was
 * shown for another one, before a switch in another tab), naming the page's account; undefined
 * when it is, and always without an accounts file.
 */
export function refuseOtherAccount(
  request: FastifyRequest,
  reply: FastifyReply,
  render: Renderer,
  given: unknown,
  deps: WebDeps,
): Promise<FastifyReply> | undefined {
  const current = request.accountView?.current;
  if (current === undefined || given === current) return undefined;
  const i18n = readerI18n(request, deps.config.locale);
  return render(
    request,
    reply,
    "error",
    {
      title: i18n.t("error.otherAccount.title"),
      message:
        typeof given === "string" && given !== ""
          ? i18n.t("error.otherAccount.shownFor", { given, current })
          : i18n.t("error.otherAccount.unnamed", { current }),
    },
    409,
  );
}

export function refuseCsrf(request: FastifyRequest, reply: FastifyReply, render: Renderer, deps: WebDeps) {
  const i18n = readerI18n(request, deps.config.locale);
  return render(
    request,
    reply,
    "error",
    { title: i18n.t("error.csrf.title"), message: i18n.t("error.csrf.message") },
    403,
  );
}

export function createKit(render: Renderer, deps: WebDeps): PageKit {
  const i18n = (request: FastifyRequest) => readerI18n(request, deps.config.locale);
  return {
    requireRole(role: Role) {
      return async (request: FastifyRequest, reply: FastifyReply) => {
        if (roleAtLeast(request.user.role, role)) return;
        const words = i18n(request);
        await render(
          request,
          reply,
          "error",
          {
            title: words.t("error.role.title"),
            message: words.t("error.role.message", {
              role: wordOf(words, "role", role),
              user: request.user.name,
              userRole: wordOf(words, "role", request.user.role),
            }),
          },
          403,
        );
      };
    },
    render,
    i18n,
    verifyCsrf(request, token) {
      return tokensMatch(token, request.webSession?.csrfToken);
    },
    refuseOtherAccount(request, reply, given) {
      return refuseOtherAccount(request, reply, render, given, deps);
    },
  };
}

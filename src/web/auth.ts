/**
 * The two global hooks every route goes through: sign-in (a live session in the database, else
 * 303 to /login) and CSRF (every POST carries the session's `_csrf`, else 403 and nothing runs).
 * Registered before any page, so a page cannot forget either.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { liveSession, touchSession } from "../db/console-sessions.ts";
import type { PageKit, Role, WebDeps } from "./kit.ts";
import { roleAtLeast } from "./kit.ts";
import type { Renderer } from "./render.ts";
import { SESSION_COOKIE, sessionIdOf, tokensMatch } from "./session-tokens.ts";

/** Paths that answer without a session. */
export function isPublicPath(path: string): boolean {
  return path === "/login" || path === "/healthz" || path.startsWith("/static/");
}

const TOUCH_EVERY_MS = 60_000;

export function installAuthHooks(app: FastifyInstance, deps: WebDeps, render: Renderer): void {
  app.decorateRequest("user", undefined as never);
  app.decorateRequest("webSession", undefined);

  app.addHook("onRequest", async (request, reply) => {
    const path = request.url.split("?")[0]!;
    if (isPublicPath(path)) return;
    const token = request.cookies[SESSION_COOKIE];
    const now = deps.now();
    const session = token ? await liveSession(deps.db.sql, sessionIdOf(token), now) : undefined;
    if (!session) return reply.redirect("/login", 303);
    request.user = { name: session.userName, role: session.role };
    request.webSession = { id: session.id, csrfToken: session.csrfToken };
    if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      await touchSession(deps.db.sql, session.id, now);
    }
  });

  app.addHook("preHandler", async (request, reply) => {
    if (request.method !== "POST" || !request.webSession) return; // /login checks its own token
    if (request.routeOptions.config?.multipartCsrf) return; // the handler calls kit.verifyCsrf
    const given = (request.body as Record<string, unknown> | undefined)?._csrf;
    if (!tokensMatch(given, request.webSession.csrfToken)) return refuseCsrf(request, reply, render);
  });
}

export function refuseCsrf(request: FastifyRequest, reply: FastifyReply, render: Renderer) {
  return render(
    request,
    reply,
    "error",
    {
      title: "Form expired",
      message:
        "This form did not carry a valid _csrf token (an old page, or a form from another site): nothing was changed. Go back, reload the page and try again.",
    },
    403,
  );
}

export function createKit(render: Renderer): PageKit {
  return {
    requireRole(role: Role) {
      return async (request: FastifyRequest, reply: FastifyReply) => {
        if (roleAtLeast(request.user.role, role)) return;
        await render(
          request,
          reply,
          "error",
          {
            title: "Not allowed",
            message: `This needs the ${role} role; you are signed in as ${request.user.name} (${request.user.role}).`,
          },
          403,
        );
      };
    },
    render,
    verifyCsrf(request, token) {
      return tokensMatch(token, request.webSession?.csrfToken);
    },
  };
}

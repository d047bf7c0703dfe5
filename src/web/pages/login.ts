/**
 * GET/POST /login and POST /logout. The form's CSRF token before a session exists is a double
 * submit (cookie and field must match); afterwards the session's own token applies. More than
 * five failed attempts for one name from one address within a minute answer 429, whatever the
 * password, across every console process (the failures are in the database).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import {
  createSession,
  deleteSession,
  recentLoginFailures,
  recordLoginFailure,
} from "../../db/console-sessions.ts";
import { consoleUserCredentials } from "../../db/console-users.ts";
import type { RegisterPages, WebDeps } from "../kit.ts";
import { DECOY_HASH, verifyPassword } from "../passwords.ts";
import { LOGIN_CSRF_COOKIE, newToken, SESSION_COOKIE, sessionIdOf, tokensMatch } from "../session-tokens.ts";

const FAILURES_ALLOWED_PER_MINUTE = 5;

interface LoginBody {
  username?: unknown;
  password?: unknown;
  _csrf?: unknown;
}

export const registerLoginPages: RegisterPages = (app, deps, kit) => {
  const showForm = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    extra: { error?: string; username?: string } = {},
  ) => {
    const token = request.cookies[LOGIN_CSRF_COOKIE] ?? newToken();
    reply.setCookie(LOGIN_CSRF_COOKIE, token, {
      path: "/login",
      httpOnly: true,
      sameSite: "strict",
      secure: secureCookies(request, deps),
      maxAge: 3600,
    });
    return kit.render(request, reply, "login", { title: "Sign in", loginCsrf: token, ...extra }, status);
  };

  app.get("/login", (request, reply) => showForm(request, reply, 200));

  app.post<{ Body: LoginBody }>("/login", async (request, reply) => {
    const body = request.body ?? {};
    if (!tokensMatch(body._csrf, request.cookies[LOGIN_CSRF_COOKIE])) {
      return kit.render(
        request,
        reply,
        "error",
        {
          title: "Form expired",
          message: "The sign-in form did not carry a valid _csrf token. Reload /login and try again.",
        },
        403,
      );
    }
    const username = typeof body.username === "string" ? body.username.trim() : "";
    const password = typeof body.password === "string" ? body.password : "";
    if (!username || !password) {
      return showForm(request, reply, 401, { error: "Enter a user name and a password.", username });
    }
    const now = deps.now();
    const who = { username: username.slice(0, 200), address: request.ip };
    const failures = await recentLoginFailures(deps.db.sql, who, new Date(now.getTime() - 60_000));
    if (failures >= FAILURES_ALLOWED_PER_MINUTE) {
      reply.header("retry-after", "60");
      return showForm(request, reply, 429, {
        error: "Too many failed attempts for this user from this address: wait a minute, then try again.",
        username,
      });
    }
    const user = await consoleUserCredentials(deps.db.sql, username);
    const ok = await verifyPassword(password, user?.passwordHash ?? DECOY_HASH);
    if (!user || !ok) {
      await recordLoginFailure(deps.db.sql, who, now);
      deps.log.info({ username: who.username, address: who.address }, "console sign-in failed");
      return showForm(request, reply, 401, { error: "Wrong user name or password.", username });
    }
    const token = newToken();
    const expiresAt = new Date(now.getTime() + deps.config.webSessionHours * 3_600_000);
    await createSession(deps.db.sql, {
      id: sessionIdOf(token),
      userId: user.id,
      csrfToken: newToken(),
      createdAt: now,
      expiresAt,
    });
    deps.log.info({ user: user.name, address: who.address }, "console sign-in");
    reply.clearCookie(LOGIN_CSRF_COOKIE, { path: "/login" });
    reply.setCookie(SESSION_COOKIE, token, {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: secureCookies(request, deps),
      expires: expiresAt,
    });
    return reply.redirect("/", 303);
  });

  app.post("/logout", async (request, reply) => {
    // The global CSRF hook has checked _csrf: a foreign page cannot sign anyone out.
    if (request.webSession) await deleteSession(deps.db.sql, request.webSession.id, deps.now());
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    return reply.redirect("/login", 303);
  });
};

/** Secure cookies when the request came over HTTPS or REGWATCH_WEB_SECURE_COOKIES says so (a TLS proxy). */
function secureCookies(request: FastifyRequest, deps: WebDeps): boolean {
  return deps.config.webSecureCookies || request.protocol === "https";
}

/**
 * GET/POST /login and POST /logout. The form's CSRF token before a session exists is a double
 * submit (cookie and field must match); afterwards the session's own token applies. Sign-in
 * attempts (failed, or still being checked) are limited across every console process, counted in
 * the database on its clock before the password is checked: beyond a limit the answer is 429
 * with Retry-After whatever the password, and no password is checked (LIMITS below).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { claimLoginAttempt, forgetLoginAttempt } from "../../console/login-attempts.ts";
import { deleteSession } from "../../console/sessions.ts";
import { consoleUserCredentials } from "../../console/users.ts";
import { countConsoleUsers, userName } from "../../console/users-admin.ts";
import { commandAsRun } from "../command-name.ts";
import { fill } from "../fill-message.ts";
import type { RegisterPages } from "../kit.ts";
import { oidcSide } from "../oidc-client.ts";
import { DECOY_HASH, verifyPassword } from "../passwords.ts";
import { form, line, PLAIN_GET, PLAIN_POST, query, typedText } from "../route-schemas.ts";
import { openSession, secureCookies } from "../session-start.ts";
import { LOGIN_CSRF_COOKIE, newToken, SESSION_COOKIE, tokensMatch } from "../session-tokens.ts";
import { registerOidcPages, signInRefusal } from "./oidc-login.ts";
import { usersMessages } from "./users-admin-messages.ts";

/** A user name is one line; a password any text but NUL and the like, no longer than passwords may be. */
const SIGN_IN = { querystring: query(), body: form({ username: line(200), password: typedText(1024) }) };

/**
 * Failed attempts (and ones still being checked) allowed: five a minute per name and address;
 * twenty in ten minutes per address across names (one address trying many names); ten in five
 * minutes per name across addresses (many addresses trying one name: short, since anyone can
 * set it off). The last two spare a name at an address it signed in from (docs/console.md).
 */
const LIMITS = {
  pair: { max: 5, windowSeconds: 60 },
  address: { max: 20, windowSeconds: 600 },
  name: { max: 10, windowSeconds: 300 },
} as const;

interface LoginBody {
  username?: unknown;
  password?: unknown;
  _csrf?: unknown;
}

export const registerLoginPages: RegisterPages = (app, deps, kit) => {
  const oidc = deps.config.oidc;
  const side = oidc ? oidcSide(oidc) : undefined;
  if (oidc && side) registerOidcPages(app, deps, kit, oidc, side);
  const showForm = async (
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
    // A console nobody can sign in to yet says how to create the first admin.
    const i18n = kit.i18n(request);
    const passwords = !oidc || oidc.localUsers;
    const firstAdmin =
      passwords && (await countConsoleUsers(deps.db.sql)) === 0 ? firstAdminHint(i18n) : null;
    const company = oidc ? { label: oidc.label, localUsers: oidc.localUsers } : null;
    return kit.render(
      request,
      reply,
      "login",
      { title: i18n.t("login.title"), loginCsrf: token, firstAdmin, oidc: company, ...extra },
      status,
    );
  };

  app.get("/login", { schema: PLAIN_GET }, (request, reply) => showForm(request, reply, 200));

  app.post<{ Body: LoginBody }>("/login", { schema: SIGN_IN }, async (request, reply) => {
    const body = request.body ?? {};
    const i18n = kit.i18n(request);
    if (oidc && !oidc.localUsers) {
      const page = {
        title: i18n.t("oidc.passwordOff.title"),
        message: i18n.t("oidc.passwordOff.message", { provider: oidc.label }),
      };
      return signInRefusal(kit, request, reply, page, 403);
    }
    if (!tokensMatch(body._csrf, request.cookies[LOGIN_CSRF_COOKIE])) {
      const page = { title: i18n.t("error.csrf.title"), message: i18n.t("error.csrf.login") };
      return kit.render(request, reply, "error", page, 403);
    }
    const username = typeof body.username === "string" ? userName(body.username) : "";
    const password = typeof body.password === "string" ? body.password : "";
    if (!username || !password) {
      return showForm(request, reply, 401, { error: i18n.t("login.missing"), username });
    }
    const who = { username: username.slice(0, 200), address: request.ip };
    // Counted before the slow password check, in one step with the count: a burst sent at once
    // gets five checks at most, and a right password after those is refused like a wrong one.
    const attempt = await claimLoginAttempt(deps.db.sql, who, LIMITS);
    if (!attempt.allowed) {
      reply.header("retry-after", String(attempt.retryAfterSeconds));
      return showForm(request, reply, 429, {
        error: i18n.t("login.tooMany", { minutes: Math.ceil(attempt.retryAfterSeconds / 60) }),
        username,
      });
    }
    const user = await consoleUserCredentials(deps.db.sql, username);
    const ok = await verifyPassword(password, user?.passwordHash ?? DECOY_HASH);
    if (!user || !ok) {
      deps.log.info({ username: who.username, address: who.address }, "console sign-in failed");
      return showForm(request, reply, 401, { error: i18n.t("login.wrong"), username });
    }
    await forgetLoginAttempt(deps.db.sql, attempt.id);
    reply.clearCookie(LOGIN_CSRF_COOKIE, { path: "/login" });
    return openSession(request, reply, deps, { id: user.id, name: user.name, via: "password" });
  });

  app.post("/logout", { schema: PLAIN_POST }, async (request, reply) => {
    // The global CSRF hook has checked _csrf: a foreign page cannot sign anyone out.
    const session = request.webSession;
    if (session) await deleteSession(deps.db.sql, session.id, deps.now());
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    // A person the provider signed in is signed out there too, when it offers a way to.
    const atProvider =
      session?.external && oidc && side
        ? await side.endSessionUrl(loginUrlOf(oidc.redirectUrl)).catch(() => undefined)
        : undefined;
    return reply.redirect(atProvider ?? "/login", 303);
  });
};

/** The console's sign-in page as the provider reaches it: the callback address without /oidc/callback. */
function loginUrlOf(redirectUrl: string): string {
  const url = new URL(redirectUrl);
  url.pathname = url.pathname.replace(/\/oidc\/callback$/, "");
  url.search = "";
  return url.href;
}

/** The first-admin hint, its command as it is run here (`npx regwatch` in a checkout, command-name.ts). */
function firstAdminHint(i18n: Parameters<typeof usersMessages>[0]) {
  const M = usersMessages(i18n);
  return { ...M, firstAdminCommand: fill(M.firstAdminCommand, { command: commandAsRun() }) };
}

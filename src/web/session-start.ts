/**
 * A new console session for a user whose identity was proven (a password, or the company's
 * identity provider): the row, the cookie, and the log line. Both ways of signing in end here, so
 * a session started by either is bound alike (its own CSRF token, expiry, cookie flags).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { rememberLoginAddress } from "../console/login-addresses.ts";
import { createSession } from "../console/sessions.ts";
import type { WebDeps } from "./kit.ts";
import { newToken, SESSION_COOKIE, sessionIdOf } from "./session-tokens.ts";

export async function openSession(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: WebDeps,
  user: { id: number; name: string; via: "password" | "oidc" },
): Promise<FastifyReply> {
  await rememberLoginAddress(deps.db.sql, user.id, request.ip);
  const now = deps.now();
  const token = newToken();
  const expiresAt = new Date(now.getTime() + deps.config.webSessionHours * 3_600_000);
  await createSession(deps.db.sql, {
    id: sessionIdOf(token),
    userId: user.id,
    csrfToken: newToken(),
    createdAt: now,
    expiresAt,
  });
  deps.log.info({ user: user.name, address: request.ip, via: user.via }, "console sign-in");
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: secureCookies(request, deps),
    expires: expiresAt,
  });
  return reply.redirect("/", 303);
}

/** Secure cookies when the request came over HTTPS or REGWATCH_WEB_SECURE_COOKIES says so (a TLS proxy). */
export function secureCookies(request: FastifyRequest, deps: WebDeps): boolean {
  return deps.config.webSecureCookies || request.protocol === "https";
}

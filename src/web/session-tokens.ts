/**
 * Session and CSRF tokens: random, compared in constant time. The session cookie carries a token
 * whose SHA-256 is the session's id in the database, so the table alone cannot sign anyone in.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const SESSION_COOKIE = "regwatch_session";
/** The sign-in form's CSRF token before there is a session (double submit: cookie and field). */
export const LOGIN_CSRF_COOKIE = "regwatch_login_csrf";

export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

export function sessionIdOf(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Whether a posted token equals the expected one; a missing or odd-shaped one never does. */
export function tokensMatch(given: unknown, expected: string | undefined): boolean {
  if (typeof given !== "string" || !expected || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

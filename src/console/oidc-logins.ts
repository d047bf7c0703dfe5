/**
 * Company sign-ins under way: what the provider's callback must match (state, nonce, PKCE
 * verifier), found by the SHA-256 of the browser's pending cookie. Taking one deletes it in the
 * same statement, so a replayed callback finds nothing; expired ones are cleared on the way.
 */
import type { Sql } from "../db/connect.ts";

export interface PendingOidcLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export async function savePendingOidcLogin(
  sql: Sql,
  login: PendingOidcLogin & { id: string; now: Date; expiresAt: Date },
): Promise<void> {
  await sql`
    with expired as (delete from ${sql.t.console_oidc_logins} where expires_at <= ${login.now})
    insert into ${sql.t.console_oidc_logins} (id, state, nonce, code_verifier, expires_at)
    values (${login.id}, ${login.state}, ${login.nonce}, ${login.codeVerifier}, ${login.expiresAt})`;
}

/** The sign-in under way with this id, removed as it is read; undefined when none is (or it lapsed). */
export async function takePendingOidcLogin(
  sql: Sql,
  id: string,
  now: Date,
): Promise<PendingOidcLogin | undefined> {
  const [row] = await sql<(PendingOidcLogin & { expiresAt: Date })[]>`
    delete from ${sql.t.console_oidc_logins} where id = ${id}
    returning state, nonce, code_verifier as "codeVerifier", expires_at as "expiresAt"`;
  if (!row || row.expiresAt <= now) return undefined;
  return { state: row.state, nonce: row.nonce, codeVerifier: row.codeVerifier };
}

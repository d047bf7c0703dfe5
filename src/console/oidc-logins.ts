/**
 * Company sign-ins under way: what the provider's callback must match (state, nonce, PKCE
 * verifier), found by the SHA-256 of the browser's pending cookie. Taking one deletes it in the
 * same statement, so a replayed callback finds nothing; expired ones are cleared on the way.
 * Starts per client address are limited (docs/console.md "Sign-in limits").
 */
import type { Sql } from "../db/connect.ts";

export interface PendingOidcLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Sign-ins under way one client address may start within `windowSeconds` of the database's clock. */
export interface OidcStartLimit {
  max: number;
  windowSeconds: number;
}

/**
 * Saves a sign-in under way unless the address has started `limit.max` in the window that are
 * still under way (a finished one was taken, so it no longer counts): then nothing is written and
 * the answer says how many seconds until a place frees. Starts from one address take turns on a
 * transaction-scoped advisory lock, so two asked at once never both take the last place.
 */
export async function savePendingOidcLogin(
  sql: Sql,
  login: PendingOidcLogin & { id: string; address: string; now: Date; expiresAt: Date },
  limit: OidcStartLimit,
): Promise<{ saved: true } | { saved: false; retryAfterSeconds: number }> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtextextended(
      'oidc' || chr(10) || ${login.address} || chr(10) || ${tx.schema}::text, ${OIDC_LOCK_SEED}))`;
    // A statement of its own after the lock: its snapshot sees every start committed before it.
    const [wait] = await tx<{ seconds: number }[]>`
      select ceil(extract(epoch from created_at + make_interval(secs => ${limit.windowSeconds}) - now()))::int
        as seconds
      from ${tx.t.console_oidc_logins}
      where address = ${login.address} and created_at > now() - make_interval(secs => ${limit.windowSeconds})
      order by created_at desc offset ${limit.max - 1} limit 1`;
    if (wait) return { saved: false as const, retryAfterSeconds: Math.max(1, wait.seconds) };
    await tx`
      with expired as (delete from ${tx.t.console_oidc_logins} where expires_at <= ${login.now})
      insert into ${tx.t.console_oidc_logins} (id, state, nonce, code_verifier, expires_at, address)
      values (${login.id}, ${login.state}, ${login.nonce}, ${login.codeVerifier}, ${login.expiresAt},
              ${login.address})`;
    return { saved: true as const };
  });
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

const OIDC_LOCK_SEED = 0x72_77_6f_69; // "rwoi"

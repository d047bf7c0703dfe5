/**
 * The sign-in limits' bookkeeping: attempts in console_login_failures, shared by every console
 * process and timed by the database's clock alone (a console whose clock runs ahead neither
 * counts nor prunes differently). An attempt is counted before its password is checked (the check
 * takes a while, and a burst sent at once must not all pass a count read before any of them is
 * written); a successful one is taken back afterwards, so what stays are the failures and the
 * attempts still being checked. Three limits: per user name and address; per address across
 * names; per name across addresses. The last two spare a name at an address it signed in from
 * (login-addresses.ts), so a stranger's burst does not lock a user out of their usual place.
 */
import type { Sql } from "../db/connect.ts";

export interface LoginAttemptLimit {
  /** Attempts (failed or still being checked) allowed within `windowSeconds` of the database's clock. */
  max: number;
  windowSeconds: number;
}

export interface LoginAttemptLimits {
  /** Per user name and address. */
  pair: LoginAttemptLimit;
  /** Per address, across names (a name that signed in from the address is spared). */
  address: LoginAttemptLimit;
  /** Per name, across addresses (an address the name signed in from is spared). */
  name: LoginAttemptLimit;
}

export type LoginAttemptClaim = { allowed: true; id: number } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts an attempt for `who` unless a limit is reached: then nothing is recorded and the answer
 * says how many seconds until the limit frees a place. Attempts from one address, then for one
 * name, take turns on transaction-scoped advisory locks (always in that order, so two never wait
 * on each other), so two processes asked at once never both see the last free place.
 */
export async function claimLoginAttempt(
  sql: Sql,
  who: { username: string; address: string },
  limits: LoginAttemptLimits,
): Promise<LoginAttemptClaim> {
  return sql.begin(async (tx) => {
    // 64-bit keys from the address or the name and the schema (one home per schema shares the table).
    await tx`select pg_advisory_xact_lock(hashtextextended(
      'address' || chr(10) || ${who.address} || chr(10) || ${tx.schema}::text, ${LOGIN_LOCK_SEED}))`;
    await tx`select pg_advisory_xact_lock(hashtextextended(
      'name' || chr(10) || ${who.username} || chr(10) || ${tx.schema}::text, ${LOGIN_LOCK_SEED}))`;
    // A statement of its own after the locks: its snapshot sees every attempt committed before it.
    // Each wait is null while its limit has room, else the seconds until its max-th newest attempt
    // leaves the window.
    const { pair, address, name } = limits;
    const [waits] = await tx<{ pair: number | null; address: number | null; name: number | null }[]>`
      with known as (
        select exists (
          select from ${tx.t.console_login_addresses} a join ${tx.t.console_users} u on u.id = a.user_id
          where u.name = ${who.username} and a.address = ${who.address}
            and a.last_at > now() - interval '90 days') as spared
      )
      select
        (select ceil(extract(epoch from at + make_interval(secs => ${pair.windowSeconds}) - now()))::int
          from ${tx.t.console_login_failures}
          where username = ${who.username} and address = ${who.address}
            and at > now() - make_interval(secs => ${pair.windowSeconds})
          order by at desc offset ${pair.max - 1} limit 1) as pair,
        (select ceil(extract(epoch from at + make_interval(secs => ${address.windowSeconds}) - now()))::int
          from ${tx.t.console_login_failures}
          where address = ${who.address} and not (select spared from known)
            and at > now() - make_interval(secs => ${address.windowSeconds})
          order by at desc offset ${address.max - 1} limit 1) as address,
        (select ceil(extract(epoch from at + make_interval(secs => ${name.windowSeconds}) - now()))::int
          from ${tx.t.console_login_failures}
          where username = ${who.username} and not (select spared from known)
            and at > now() - make_interval(secs => ${name.windowSeconds})
          order by at desc offset ${name.max - 1} limit 1) as name`;
    const waited = [waits?.pair, waits?.address, waits?.name].filter((w): w is number => w != null);
    if (waited.length > 0) return { allowed: false as const, retryAfterSeconds: Math.max(1, ...waited) };
    // Rows older than an hour, longer than any window, are pruned on the way.
    const [row] = await tx<{ id: number }[]>`
      with pruned as (delete from ${tx.t.console_login_failures} where at < now() - interval '1 hour')
      insert into ${tx.t.console_login_failures} (username, address)
      values (${who.username}, ${who.address})
      returning id::int`;
    return { allowed: true as const, id: row!.id };
  });
}

/** Takes back an attempt whose password was right: it no longer counts against the limits. */
export async function forgetLoginAttempt(sql: Sql, id: number): Promise<void> {
  await sql`delete from ${sql.t.console_login_failures} where id = ${id}`;
}

const LOGIN_LOCK_SEED = 0x72_77_6c_67; // "rwlg"

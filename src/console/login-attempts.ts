/**
 * The sign-in limit's bookkeeping: attempts per user name and address in console_login_failures,
 * shared by every console process. An attempt is counted before its password is checked (the
 * check takes a while, and a burst sent at once must not all pass a count read before any of them
 * is written); a successful one is taken back afterwards, so what stays are the failures and the
 * attempts still being checked.
 */
import type { Sql } from "../db/connect.ts";

export interface LoginAttemptLimit {
  /** Attempts (failed or still being checked) allowed per user name and address within `windowMs`. */
  max: number;
  windowMs: number;
}

/** Rows older than this are pruned on the way; the limit itself looks back `windowMs`. */
const KEEP_MS = 3_600_000;

/**
 * Counts an attempt for `who` at `at` unless `limit.max` attempts are counted within the window
 * already: then nothing is recorded and the answer is `{ allowed: false }`. Attempts for one name
 * and address take turns on a transaction-scoped advisory lock, so two processes asked at once
 * never both see the last free place.
 */
export async function claimLoginAttempt(
  sql: Sql,
  who: { username: string; address: string },
  at: Date,
  limit: LoginAttemptLimit,
): Promise<{ allowed: true; id: number } | { allowed: false }> {
  return sql.begin(async (tx) => {
    // 64-bit key from the name, the address and the schema (one home per schema shares the table).
    await tx`select pg_advisory_xact_lock(hashtextextended(
      ${who.username} || chr(10) || ${who.address} || chr(10) || ${tx.schema}::text,
      ${LOGIN_LOCK_SEED}))`;
    // A statement of its own after the lock: its snapshot sees every attempt committed before it.
    const [counted] = await tx<{ n: number }[]>`
      select count(*)::int as n from ${tx.t.console_login_failures}
      where username = ${who.username} and address = ${who.address}
        and at > ${new Date(at.getTime() - limit.windowMs)}`;
    if ((counted?.n ?? 0) >= limit.max) return { allowed: false as const };
    const [row] = await tx<{ id: number }[]>`
      with pruned as (delete from ${tx.t.console_login_failures} where at < ${new Date(at.getTime() - KEEP_MS)})
      insert into ${tx.t.console_login_failures} (username, address, at)
      values (${who.username}, ${who.address}, ${at})
      returning id::int`;
    return { allowed: true as const, id: row!.id };
  });
}

/** Takes back an attempt whose password was right: it no longer counts against the limit. */
export async function forgetLoginAttempt(sql: Sql, id: number): Promise<void> {
  await sql`delete from ${sql.t.console_login_failures} where id = ${id}`;
}

const LOGIN_LOCK_SEED = 0x72_77_6c_67; // "rwlg"

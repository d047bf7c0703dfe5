/**
 * Console sessions, in the database so that every console process (a `regwatch web`, a
 * `daemon --web`) sees the same ones (sign-in attempts: console-login-attempts.ts). A session is
 * found by the SHA-256 of its cookie's token; the token itself never reaches the database.
 */
import type { Sql } from "../db/connect.ts";
import type { ConsoleRole } from "./users.ts";

export interface SessionRow {
  id: string;
  userName: string;
  role: ConsoleRole;
  /** The user's chosen language (en, hu), or null. */
  locale: string | null;
  csrfToken: string;
  expiresAt: Date;
  lastSeenAt: Date;
  /** The account the session shows (fleet mode); null: none chosen yet. */
  currentAccount: string | null;
  /** Every account the user has been given, by name, read with the session on each request. */
  accounts: string[];
  /** Whether the user signed in through the company's identity provider (no password). */
  external: boolean;
}

export async function createSession(
  sql: Sql,
  session: { id: string; userId: number; csrfToken: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  // Sessions that ended without a sign-out are cleared on the way, so the table stays small.
  await sql`
    with expired as (delete from ${sql.t.console_sessions} where expires_at <= ${session.createdAt})
    insert into ${sql.t.console_sessions} (id, user_id, csrf_token, created_at, expires_at, last_seen_at)
    values (${session.id}, ${session.userId}, ${session.csrfToken}, ${session.createdAt},
            ${session.expiresAt}, ${session.createdAt})`;
}

/** The session with this id when it has not expired at `now`, with its user. */
export async function liveSession(sql: Sql, id: string, now: Date): Promise<SessionRow | undefined> {
  const [row] = await sql<SessionRow[]>`
    select s.id, u.name as "userName", u.role, u.locale, s.csrf_token as "csrfToken",
           s.expires_at as "expiresAt", s.last_seen_at as "lastSeenAt",
           s.current_account as "currentAccount", u.external_subject is not null as external,
           array(select a.account from ${sql.t.console_user_accounts} a
                  where a.user_id = s.user_id order by a.account) as accounts
    from ${sql.t.console_sessions} s join ${sql.t.console_users} u on u.id = s.user_id
    where s.id = ${id} and s.expires_at > ${now}`;
  return row;
}

export async function touchSession(sql: Sql, id: string, now: Date): Promise<void> {
  await sql`update ${sql.t.console_sessions} set last_seen_at = ${now} where id = ${id}`;
}

/** Makes the session show `account` (the caller has checked the user was given it). */
export async function setSessionAccount(sql: Sql, id: string, account: string): Promise<void> {
  await sql`update ${sql.t.console_sessions} set current_account = ${account} where id = ${id}`;
}

/** Ends a session (sign-out); expired sessions of anyone are cleared on the way. */
export async function deleteSession(sql: Sql, id: string, now: Date): Promise<void> {
  await sql`delete from ${sql.t.console_sessions} where id = ${id} or expires_at <= ${now}`;
}

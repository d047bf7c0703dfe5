/**
 * Console users: who may sign in to `regwatch web`, with a role. Only password hashes pass
 * through here; hashing and checking passwords is the console's (src/web/passwords.ts).
 */
import type { Sql } from "../db/connect.ts";
import { grantAccounts } from "./access.ts";
import { type AdminScope, lockUserWithin, type ScopedChange, withinScope } from "./users-scope.ts";

export type ConsoleRole = "reader" | "reviewer" | "admin";
export const CONSOLE_ROLES: readonly ConsoleRole[] = ["reader", "reviewer", "admin"];

export interface ConsoleUserRow {
  id: number;
  name: string;
  role: ConsoleRole;
  /** The language the user chose (en, hu), or null: the browser's, else REGWATCH_LOCALE. */
  locale: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Sessions not yet expired at the time of the query. */
  activeSessions: number;
  /** The accounts the user may see (fleet mode), by name; empty without an accounts file. */
  accounts: string[];
}

/** Adds a user (with the accounts given, if any); false when the name is taken (nothing changes then). */
export async function addConsoleUser(
  sql: Sql,
  user: {
    name: string;
    role: ConsoleRole;
    passwordHash: string;
    locale?: string | null;
    accounts?: readonly string[];
  },
): Promise<boolean> {
  return sql.begin(async (tx) => {
    const rows = await tx`
      insert into ${tx.t.console_users} (name, role, password_hash, locale)
      values (${user.name}, ${user.role}, ${user.passwordHash}, ${user.locale ?? null})
      on conflict (name) do nothing
      returning id`;
    if (rows.length !== 1) return false;
    await grantAccounts(tx, user.name, user.accounts ?? []);
    return true;
  });
}

/** Every user, or (an admin's page in a fleet) those whose accounts the scope holds all of. */
export async function listConsoleUsers(
  sql: Sql,
  now: Date,
  scope: AdminScope = null,
): Promise<ConsoleUserRow[]> {
  const rows = await sql<ConsoleUserRow[]>`
    select u.id::int, u.name, u.role, u.locale, u.created_at as "createdAt", u.updated_at as "updatedAt",
           (select count(*)::int from ${sql.t.console_sessions} s
             where s.user_id = u.id and s.expires_at > ${now}) as "activeSessions",
           array(select a.account from ${sql.t.console_user_accounts} a
                  where a.user_id = u.id order by a.account) as accounts
    from ${sql.t.console_users} u order by u.name`;
  return rows.filter((u) => withinScope(u.accounts, scope));
}

/** The stored hash and role of a user, for signing in; undefined when there is no such user. */
export async function consoleUserCredentials(
  sql: Sql,
  name: string,
): Promise<{ id: number; name: string; role: ConsoleRole; passwordHash: string } | undefined> {
  const [row] = await sql<{ id: number; name: string; role: ConsoleRole; passwordHash: string }[]>`
    select id::int, name, role, password_hash as "passwordHash"
    from ${sql.t.console_users} where name = ${name}`;
  return row;
}

/**
 * Replaces a user's password hash and ends every session of the user, so a password changed
 * because it leaked locks out whoever used it; nothing changes for a user outside the scope, nor
 * for one the company's identity provider signs in ("external": their password is the provider's).
 */
export async function setConsolePassword(
  sql: Sql,
  name: string,
  passwordHash: string,
  scope: AdminScope,
): Promise<ScopedChange | "external"> {
  return sql.begin(async (tx) => {
    const reach = await lockUserWithin(tx, name, scope);
    if (reach !== "within") return reach;
    const [row] = await tx<{ id: number }[]>`
      update ${tx.t.console_users} set password_hash = ${passwordHash}, updated_at = now()
      where name = ${name} and external_subject is null returning id::int`;
    if (!row) return "external";
    await tx`delete from ${tx.t.console_sessions} where user_id = ${row.id}`;
    return "done";
  });
}

/**
 * Sets the language the console speaks to a user (null: back to the browser's); their sessions
 * stay. Nothing changes for a user outside the scope.
 */
export async function setConsoleLocale(
  sql: Sql,
  name: string,
  locale: string | null,
  scope: AdminScope,
): Promise<ScopedChange> {
  return sql.begin(async (tx) => {
    const reach = await lockUserWithin(tx, name, scope);
    if (reach !== "within") return reach;
    await tx`update ${tx.t.console_users} set locale = ${locale}, updated_at = now() where name = ${name}`;
    return "done";
  });
}

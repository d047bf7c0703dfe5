/**
 * What the console's users page changes beyond adding and setting passwords
 * (console-users.ts): a user's role and their removal, neither of which may leave the console
 * without an admin. The admins are locked before they are counted, so two admins demoting each
 * other at once cannot both succeed.
 */
import type { Sql, Tx } from "../db/connect.ts";
import type { ConsoleRole } from "./users.ts";
import { type AdminScope, lockUserWithin } from "./users-scope.ts";

export type AdminChange = "done" | "unchanged" | "no-such-user" | "last-admin" | "outside";

/** The other admins, locked until the transaction ends; whether `name` is one of the admins. */
async function lockAdmins(tx: Tx, name: string): Promise<{ isAdmin: boolean; admins: number }> {
  const rows = await tx<{ name: string }[]>`
    select name from ${tx.t.console_users} where role = 'admin' order by id for update`;
  return { isAdmin: rows.some((r) => r.name === name), admins: rows.length };
}

/** Gives `name` the role; refused when they are outside the scope or that would leave no admin. */
export async function setConsoleRole(
  sql: Sql,
  name: string,
  role: ConsoleRole,
  scope: AdminScope,
): Promise<AdminChange> {
  return sql.begin(async (tx) => {
    const { isAdmin, admins } = await lockAdmins(tx, name);
    const reach = await lockUserWithin(tx, name, scope);
    if (reach !== "within") return reach;
    if (isAdmin && role !== "admin" && admins <= 1) return "last-admin";
    const [before] = await tx<{ role: ConsoleRole }[]>`
      select role from ${tx.t.console_users} where name = ${name}`;
    if (!before) return "no-such-user";
    if (before.role === role) return "unchanged";
    await tx`update ${tx.t.console_users} set role = ${role}, updated_at = now() where name = ${name}`;
    return "done";
  });
}

/** Removes `name` (their sessions end by cascade); refused outside the scope or for the last admin. */
export async function removeConsoleUserKeepingAdmin(
  sql: Sql,
  name: string,
  scope: AdminScope,
): Promise<AdminChange> {
  return sql.begin(async (tx) => {
    const { isAdmin, admins } = await lockAdmins(tx, name);
    const reach = await lockUserWithin(tx, name, scope);
    if (reach !== "within") return reach;
    if (isAdmin && admins <= 1) return "last-admin";
    const rows = await tx`delete from ${tx.t.console_users} where name = ${name} returning id`;
    return rows.length === 1 ? "done" : "no-such-user";
  });
}

/** How many users may sign in: the sign-in page says how to create the first admin when none. */
export async function countConsoleUsers(sql: Sql): Promise<number> {
  const [row] = await sql<{ count: number }[]>`select count(*)::int as count from ${sql.t.console_users}`;
  return row?.count ?? 0;
}

/**
 * What a console user's name may be, once NFC-normalised (userName): 1 to 64 letters of the Latin
 * alphabet, accented ones too (`kovács.éva`: the Latin-1, Extended-A/B and Extended Additional
 * letters), digits 0-9, ".", "_", "@" and "-". Other scripts are left out on purpose: a Cyrillic
 * "а" looks like a Latin "a", and "аda" would pass for "ada". The CLI, the console and the
 * table's check constraint (migration 0049) allow the same.
 */
export const USER_NAME = /^[A-Za-z0-9._@\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u024F\u1E00-\u1EFF-]{1,64}$/u;

/**
 * A user name as typed, in the one form it is stored and looked up in: NFC, so "é" typed as one
 * character and as "e" with a combining accent (as some keyboards and macOS send it) is one name.
 */
export function userName(typed: string): string {
  return typed.trim().normalize("NFC");
}

/**
 * What the console's users page changes beyond adding and setting passwords
 * (console-users.ts): a user's role and their removal, neither of which may leave the console
 * without an admin. The admins are locked before they are counted, so two admins demoting each
 * other at once cannot both succeed.
 */
import type { Sql, Tx } from "../db/connect.ts";
import type { ConsoleRole } from "./users.ts";

export type AdminChange = "done" | "unchanged" | "no-such-user" | "last-admin";

/** The other admins, locked until the transaction ends; whether `name` is one of the admins. */
async function lockAdmins(tx: Tx, name: string): Promise<{ isAdmin: boolean; admins: number }> {
  const rows = await tx<{ name: string }[]>`
    select name from ${tx.t.console_users} where role = 'admin' order by id for update`;
  return { isAdmin: rows.some((r) => r.name === name), admins: rows.length };
}

/** Gives `name` the role; refused when that would leave no admin. */
export async function setConsoleRole(sql: Sql, name: string, role: ConsoleRole): Promise<AdminChange> {
  return sql.begin(async (tx) => {
    const { isAdmin, admins } = await lockAdmins(tx, name);
    if (isAdmin && role !== "admin" && admins <= 1) return "last-admin";
    const [before] = await tx<{ role: ConsoleRole }[]>`
      select role from ${tx.t.console_users} where name = ${name} for update`;
    if (!before) return "no-such-user";
    if (before.role === role) return "unchanged";
    await tx`update ${tx.t.console_users} set role = ${role}, updated_at = now() where name = ${name}`;
    return "done";
  });
}

/** Removes `name` (their sessions end by cascade); refused when they are the last admin. */
export async function removeConsoleUserKeepingAdmin(sql: Sql, name: string): Promise<AdminChange> {
  return sql.begin(async (tx) => {
    const { isAdmin, admins } = await lockAdmins(tx, name);
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

/** What a console user's name may be: the CLI and the console check the same. */
export const USER_NAME = /^[A-Za-z0-9._@-]{1,64}$/;

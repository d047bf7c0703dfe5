/**
 * Which accounts each console user may see when regwatch serves an accounts file. The rows live
 * in the fleet's home schema (`regwatch`) next to the users; the console reads them with every
 * request (console-sessions.ts), so a revoked account is gone at the user's next page.
 */
import type { Sql, Tx } from "../db/connect.ts";

/** Gives `accounts` to the user; undefined when there is no such user, else the names newly given. */
export async function grantAccounts(
  sql: Sql | Tx,
  userName: string,
  accounts: readonly string[],
): Promise<string[] | undefined> {
  const [user] = await sql<
    { id: number }[]
  >`select id::int from ${sql.t.console_users} where name = ${userName}`;
  if (!user) return undefined;
  if (accounts.length === 0) return [];
  const rows = await sql<{ account: string }[]>`
    insert into ${sql.t.console_user_accounts} (user_id, account)
    select ${user.id}, a from unnest(${sql.array([...accounts])}::text[]) as a
    on conflict (user_id, account) do nothing
    returning account`;
  return rows.map((r) => r.account).sort();
}

/** Takes `accounts` from the user; undefined when there is no such user, else the names taken. */
export async function revokeAccounts(
  sql: Sql,
  userName: string,
  accounts: readonly string[],
): Promise<string[] | undefined> {
  const [user] = await sql<
    { id: number }[]
  >`select id::int from ${sql.t.console_users} where name = ${userName}`;
  if (!user) return undefined;
  const rows = await sql<{ account: string }[]>`
    delete from ${sql.t.console_user_accounts}
    where user_id = ${user.id} and account = any(${sql.array([...accounts])}::text[])
    returning account`;
  return rows.map((r) => r.account).sort();
}

/** The accounts the user has been given, by name; empty for no such user. */
export async function accountsOfUser(sql: Sql, userName: string): Promise<string[]> {
  const rows = await sql<{ account: string }[]>`
    select a.account from ${sql.t.console_user_accounts} a join ${sql.t.console_users} u on u.id = a.user_id
    where u.name = ${userName} order by a.account`;
  return rows.map((r) => r.account);
}

/**
 * The users who may see `account`, by name: those given it. Null (no accounts file, one
 * account): every user. Alerts of an account are assigned only to these.
 */
export async function usersOfAccount(sql: Sql, account: string | null): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`
    select u.name from ${sql.t.console_users} u
    ${
      account === null
        ? sql``
        : sql`where exists (
            select from ${sql.t.console_user_accounts} a where a.user_id = u.id and a.account = ${account})`
    }
    order by u.name`;
  return rows.map((r) => r.name);
}

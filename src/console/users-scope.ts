/**
 * Which users an admin administers when regwatch serves an accounts file (issue 48): those whose
 * accounts are all among the admin's own, and only the admin's accounts may be given. An admin
 * who holds every account the file lists acts on every user, as does the operator's
 * `regwatch users` (who has the database and the file); without an accounts file, every admin.
 */
import type { Tx } from "../db/connect.ts";

/** The accounts an admin acts within; null: every user. */
export type AdminScope = readonly string[] | null;

/** What a change to one user came to when it was asked within a scope. */
export type ScopedChange = "done" | "no-such-user" | "outside";

/** The scope of an admin who holds `held`, in a fleet of `fleet` (undefined: no accounts file). */
export function adminScope(held: readonly string[], fleet: readonly string[] | undefined): AdminScope {
  if (fleet === undefined || fleet.every((name) => held.includes(name))) return null;
  return [...held];
}

/** Whether a user holding `accounts` is one the scope reaches (a user holding none always is). */
export function withinScope(accounts: readonly string[], scope: AdminScope): boolean {
  return scope === null || accounts.every((name) => scope.includes(name));
}

/**
 * Locks the user's row until the transaction ends (a grant to them waits for it: its foreign key
 * locks the row too) and says whether the scope reaches them.
 */
export async function lockUserWithin(
  tx: Tx,
  name: string,
  scope: AdminScope,
): Promise<"within" | "outside" | "no-such-user"> {
  const [row] = await tx<{ accounts: string[] }[]>`
    select array(select a.account from ${tx.t.console_user_accounts} a where a.user_id = u.id) as accounts
    from ${tx.t.console_users} u where u.name = ${name} for update of u`;
  if (!row) return "no-such-user";
  return withinScope(row.accounts, scope) ? "within" : "outside";
}

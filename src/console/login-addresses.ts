/**
 * The addresses each console user signed in from (console_login_addresses), on the database's
 * clock: the sign-in limits across names and across addresses spare a name at an address it
 * signed in from within 90 days (login-attempts.ts).
 */
import type { Sql } from "../db/connect.ts";

/** Notes a successful sign-in; addresses unused for 90 days are pruned on the way. */
export async function rememberLoginAddress(sql: Sql, userId: number, address: string): Promise<void> {
  await sql`
    with pruned as (
      delete from ${sql.t.console_login_addresses}
      where last_at < now() - interval '90 days' and not (user_id = ${userId} and address = ${address}))
    insert into ${sql.t.console_login_addresses} (user_id, address) values (${userId}, ${address})
    on conflict (user_id, address) do update set last_at = now()`;
}

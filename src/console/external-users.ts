/**
 * People signed in by the company's identity provider: a console_users row per subject
 * ("<issuer> <sub>"), created or refreshed at each sign-in with the role and accounts the role
 * map gives now, so a person moved out of a group loses the role at their next sign-in. The row
 * holds no password: its hash is a marker no password verifies against (src/web/passwords.ts).
 */
import type { Sql } from "../db/connect.ts";
import { isUniqueViolation } from "../db/db-errors.ts";
import type { ConsoleRole } from "./users.ts";

/** The password_hash of an external user: not a scrypt hash, so no password ever matches it. */
export const NO_PASSWORD = "external";

export type ExternalSignIn =
  | { kind: "ok"; userId: number }
  /** The name belongs to a local user, or to another person of the provider. */
  | { kind: "name taken" };

type Person = { subject: string; name: string; role: ConsoleRole; accounts: readonly string[] };

/**
 * Creates or refreshes the person's user. Two first sign-ins of one person at once both find no
 * row and both insert; the second meets the unique subject (or name) and is tried once more, when
 * it finds the first's row and refreshes it (or, for another person's name, says it is taken).
 */
export async function upsertExternalUser(sql: Sql, person: Person): Promise<ExternalSignIn> {
  try {
    return await upsertOnce(sql, person);
  } catch (error) {
    if (!isUniqueViolation(error, ["console_users_external_subject", "console_users_name"])) throw error;
    return upsertOnce(sql, person);
  }
}

function upsertOnce(sql: Sql, person: Person): Promise<ExternalSignIn> {
  return sql.begin(async (tx) => {
    const rows = await tx<{ id: number; externalSubject: string | null }[]>`
      select id::int, external_subject as "externalSubject" from ${tx.t.console_users}
      where name = ${person.name} or external_subject = ${person.subject}
      for update`;
    const byName = rows.find((r) => r.externalSubject !== person.subject);
    if (byName) return { kind: "name taken" };
    let id = rows[0]?.id;
    if (id === undefined) {
      const [row] = await tx<{ id: number }[]>`
        insert into ${tx.t.console_users} (name, role, password_hash, external_subject)
        values (${person.name}, ${person.role}, ${NO_PASSWORD}, ${person.subject})
        returning id::int`;
      id = row!.id;
    } else {
      await tx`
        update ${tx.t.console_users} set name = ${person.name}, role = ${person.role}, updated_at = now()
        where id = ${id} and (name, role) is distinct from (${person.name}, ${person.role})`;
    }
    const accounts = tx.array([...person.accounts]);
    await tx`
      delete from ${tx.t.console_user_accounts}
      where user_id = ${id} and account <> all(${accounts}::text[])`;
    await tx`
      insert into ${tx.t.console_user_accounts} (user_id, account)
      select ${id}, a from unnest(${accounts}::text[]) as a
      on conflict (user_id, account) do nothing`;
    return { kind: "ok", userId: id };
  });
}

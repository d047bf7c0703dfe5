/**
 * What the whole-console browser tests add to the pages world: an admin per language, a named
 * business's alert to open, and a desired list "partners" with two members, added as an admin
 * adds them on the lists page.
 */
import { expect } from "vitest";
import { addConsoleUser } from "../../src/console/users.ts";
import { hashPassword } from "../../src/web/passwords.ts";
import { postForm, signIn, TEST_PASSWORD } from "../helpers/console.ts";
import type { PagesWorld } from "./pages-fixture.ts";

/** Adds the admins (the first adds the list members); returns the alert and its business. */
export async function seedAdminPages(
  w: PagesWorld,
  admins: readonly { locale: string; admin: string }[],
): Promise<{ alertId: string; taxId: string; listName: string }> {
  for (const { locale, admin } of admins) {
    await addConsoleUser(w.t.db.sql, {
      name: admin,
      role: "admin",
      passwordHash: await hashPassword(TEST_PASSWORD),
      locale,
    });
  }
  const [alert] = await w.t.db.sql<{ id: string; tax_id: string }[]>`
    select a.id::text, c.tax_id from regwatch.alerts a join regwatch.changes c on c.id = a.change_id
    join regwatch.business_profiles p on p.tax_id = c.tax_id
    where p.name is not null order by a.id limit 1`;
  if (!alert) throw new Error("the sync raised no alert on a named business");
  const first = await signIn(w.web.url, admins[0]!.admin);
  for (const taxId of [w.taxIds[0]!, w.taxIds[25]!]) {
    const added = await postForm(`${w.web.url}/lists/members`, first, {
      list: "partners",
      tax_id: taxId,
      note: "",
    });
    expect(added.status).toBe(303);
  }
  return { alertId: alert.id, taxId: alert.tax_id, listName: "partners" };
}

/**
 * Rows of a page with the registry's name of each business, else the name a person or a file gave
 * it, marked as given ("Első Kft. (as given in supplier-master.csv)"): one read of given_names
 * for the businesses the registry has not named.
 */

import { type GivenNameSay, givenNameLabel } from "../changes/given-name.ts";
import type { Sql } from "../db/connect.ts";
import type { Translator } from "../i18n/messages.ts";
import { readGivenNames } from "../search/sql/given-names.ts";

/** The given-name sentences in the reader's language. */
export function givenNameSay(i18n: Translator): GivenNameSay {
  return (kind, values) =>
    kind === "fromFile"
      ? i18n.t("name.given.fromFile", values)
      : kind === "fromUser"
        ? i18n.t("name.given.fromUser", values)
        : i18n.t("name.given.earlier", values);
}

export async function withGivenNames<T extends { taxId: string; name: string | null }>(
  sql: Sql,
  rows: readonly T[],
  i18n: Translator,
): Promise<T[]> {
  const unnamed = [...new Set(rows.filter((r) => !r.name?.trim()).map((r) => r.taxId))];
  const given = await readGivenNames(sql, unnamed);
  return rows.map((r) => {
    const found = r.name?.trim() ? undefined : given.get(r.taxId);
    return found ? { ...r, name: givenNameLabel(found, givenNameSay(i18n)) } : r;
  });
}

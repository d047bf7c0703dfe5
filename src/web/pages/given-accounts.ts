/**
 * Which accounts the users page's add form gives. An admin holding a few accounts ticks them;
 * one holding hundreds types or pastes their names (or ticks "every account you hold"), since a
 * form of a thousand check boxes is not one anybody can use. Pure: the page checks each name
 * against the accounts file and the admin's scope afterwards, and names the first that fails.
 */

/** Up to this many accounts to give, the form shows a check box each; more, a box for names. */
export const ACCOUNT_CHECKBOXES_MAX = 10;

/** Up to this many of a user's accounts are named in the users table; the rest are counted. */
export const ACCOUNTS_NAMED = 10;

/** The longest list of typed names the form takes (1,000 names of 30 characters with separators). */
export const TYPED_NAMES_MAX = 40_000;

export interface GivenAccountsForm {
  /** The ticked check boxes. */
  ticked?: readonly string[];
  /** Names typed or pasted, separated by commas, semicolons, spaces or line breaks. */
  typed?: string;
  /** "every account you hold" ticked. */
  all?: boolean;
}

/**
 * The accounts asked for, each once, sorted: the ticked, the typed (read in lower case, as
 * account names are written) and, with `all`, every one of `offered`.
 */
export function givenAccounts(form: GivenAccountsForm, offered: readonly string[]): string[] {
  const typed = (form.typed ?? "")
    .split(/[\s,;]+/)
    .filter((name) => name !== "")
    .map((name) => name.toLowerCase());
  return [...new Set([...(form.ticked ?? []), ...typed, ...(form.all ? offered : [])])].sort();
}

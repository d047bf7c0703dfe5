/**
 * The account switcher's search (fleet mode): which of the user's own accounts match what was
 * typed. Only `choices` is ever read (the accounts auth.ts found the session's user given, as read
 * with the session on this request), so a search can list or count nothing the user was not given.
 * The result is bounded: a user given a thousand accounts gets a page of names, never all of them.
 */

/** Up to this many accounts: the header keeps a select; more, it offers the search instead. */
export const SWITCH_SELECT_MAX = 10;

/** The most accounts one search lists. */
export const ACCOUNT_RESULTS = 20;

export interface AccountSearch {
  /** What was searched for, trimmed and in lower case (account names are lower case). */
  query: string;
  /** The matches shown: names starting with the query first, then names containing it; each alphabetical. */
  shown: string[];
  /** How many of the user's accounts match (more than `shown` when the list was cut). */
  matching: number;
  /** How many accounts the user was given. */
  given: number;
}

export function searchAccounts(
  choices: readonly string[],
  typed: unknown,
  limit = ACCOUNT_RESULTS,
): AccountSearch {
  const query = typeof typed === "string" ? typed.trim().toLowerCase().slice(0, 200) : "";
  const sorted = [...choices].sort();
  const starting = sorted.filter((name) => name.startsWith(query));
  const containing =
    query === "" ? [] : sorted.filter((name) => !name.startsWith(query) && name.includes(query));
  const matching = starting.length + containing.length;
  return { query, shown: [...starting, ...containing].slice(0, limit), matching, given: choices.length };
}

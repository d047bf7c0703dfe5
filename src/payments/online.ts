/**
 * `--online`: asks the search interface's bank-account endpoint about accounts nothing local
 * knows, one request per account, in batch order. Each request is paid for from the monthly
 * quota; the search client refuses before sending once the quota is spent, and from then on the
 * remaining accounts are left unasked, each with the reason, so their rows say so.
 */
import { SearchQuotaError } from "../api/search-client.ts";
import type { BusinessRecord } from "../api/search-schemas.ts";
import { redactError } from "../secrets.ts";
import { searchValueOf } from "./accounts.ts";

export interface OnlineOutcome {
  /** Records the registry returned (to be kept in businesses). */
  records: BusinessRecord[];
  /** Requests sent. */
  asked: number;
  /** Why an account was not checked, by canonical account. */
  notChecked: Map<string, string>;
  /** The quota refusal, when one stopped the asking. */
  quotaMessage: string | null;
}

export type AskAccount = (value: string) => Promise<BusinessRecord[]>;

export async function askAccountsOnline(
  accounts: readonly string[],
  ask: AskAccount,
): Promise<OnlineOutcome> {
  const outcome: OnlineOutcome = { records: [], asked: 0, notChecked: new Map(), quotaMessage: null };
  for (const account of accounts) {
    if (outcome.quotaMessage !== null) {
      outcome.notChecked.set(account, "the monthly search quota is used up");
      continue;
    }
    try {
      outcome.records.push(...(await ask(searchValueOf(account))));
      outcome.asked++;
    } catch (error) {
      if (error instanceof SearchQuotaError) {
        outcome.quotaMessage = redactError(error);
        outcome.notChecked.set(account, "the monthly search quota is used up");
      } else {
        // The request was sent (and counted) even though it failed.
        outcome.asked++;
        outcome.notChecked.set(account, `the search failed: ${redactError(error)}`);
      }
    }
  }
  return outcome;
}

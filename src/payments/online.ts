/**
 * `--online`: sends the requests src/payments/recheck.ts planned, one at a time, in batch order.
 * Each request is paid for from the monthly quota; the search client refuses before sending once
 * the quota is spent, and from then on the remaining requests are not sent, each with the
 * reason, so the rows they answer for say so.
 */
import { SearchQuotaError } from "../api/search-client.ts";
import type { BusinessRecord } from "../api/search-schemas.ts";
import { redactError } from "../secrets.ts";
import { taxBaseOf } from "../taxid.ts";
import { detailSaid } from "./detail-said.ts";
import type { Ask, AskResult } from "./recheck.ts";

export interface OnlineOutcome {
  /** One result per ask, in order. */
  results: AskResult[];
  /** Requests sent. */
  asked: number;
  /** Requests not sent or failed. */
  notChecked: number;
  /** The quota refusal, when one stopped the asking. */
  quotaMessage: string | null;
}

/** Sends one request (and keeps what it returns); the records of its answer. */
export type SendAsk = (ask: Ask) => Promise<BusinessRecord[]>;

/** `quotaMessage`: a refusal earlier in the batch, after which nothing more is sent. */
export async function askOnline(
  asks: readonly Ask[],
  send: SendAsk,
  quotaMessage: string | null = null,
): Promise<OnlineOutcome> {
  const outcome: OnlineOutcome = { results: [], asked: 0, notChecked: 0, quotaMessage };
  for (const ask of asks) {
    if (outcome.quotaMessage !== null) {
      outcome.results.push({ ok: false, why: detailSaid.quotaSpent() });
      outcome.notChecked++;
      continue;
    }
    try {
      const records = await send(ask);
      const taxIds = records.flatMap((r) => {
        const base = r.tax_number ? taxBaseOf(r.tax_number) : undefined;
        return base ? [base] : [];
      });
      outcome.results.push({ ok: true, taxIds });
      outcome.asked++;
    } catch (error) {
      outcome.notChecked++;
      if (error instanceof SearchQuotaError) {
        outcome.quotaMessage = redactError(error);
        outcome.results.push({ ok: false, why: detailSaid.quotaSpent() });
      } else {
        // The request was sent (and counted) even though it failed.
        outcome.asked++;
        outcome.results.push({ ok: false, why: detailSaid.searchFailed(redactError(error)) });
      }
    }
  }
  return outcome;
}

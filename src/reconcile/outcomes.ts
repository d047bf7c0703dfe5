/**
 * Reading a bulk answer item by item, pure. The HTTP 200 of the bulk endpoints says nothing per
 * item: each tax id sent is looked up in `success` and `failed`, and one that is in neither is an
 * error too.
 */
import type { BulkResult } from "../api/watch-schemas.ts";
import type { ItemOp, ItemOutcome } from "./sql/desired-state.ts";

/** `item_outcomes.code` when the registry gave no per-item answer (request failed, id missing). */
export const NO_ITEM_ANSWER = 0;

export type ItemVerdict = "done" | "already" | "refused" | "unanswered";

export interface ReadOutcome extends ItemOutcome {
  verdict: ItemVerdict;
}

const ADD_REFUSALS: Record<number, string> = {
  404: "the registry does not know this tax id (404: well-formed, but no such business in its database)",
  422: "the registry says this tax id has an invalid format or cannot exist (422)",
  429: "the registry refused to add it (429): the list reached its maximum size or the contract's total limit",
};

const REMOVE_REFUSALS: Record<number, string> = {
  409:
    "the registry refused to remove it (409): the item is not in a state that allows removal; " +
    "it stays on the list and is not asked again for 12 hours",
  422: "the registry says this tax id has an invalid format or cannot exist (422)",
};

/** One outcome per tax id sent, in the order sent. */
export function readBulkResult(
  listName: string,
  op: ItemOp,
  sent: readonly string[],
  result: BulkResult,
): ReadOutcome[] {
  const succeeded = new Set(result.success);
  const failed = new Map(result.failed.map((f) => [f.tax_id, f.code]));
  return sent.map((taxId): ReadOutcome => {
    const base = { listName, taxId, op };
    if (succeeded.has(taxId)) {
      return { ...base, verdict: "done", code: null, message: op === "add" ? "added" : "removed" };
    }
    const code = failed.get(taxId);
    if (code === undefined) {
      return {
        ...base,
        verdict: "unanswered",
        code: NO_ITEM_ANSWER,
        message: "the registry's bulk answer named this tax id neither in success nor in failed",
      };
    }
    if (op === "add" && code === 409) {
      return { ...base, verdict: "already", code: null, message: "already on the list (409)" };
    }
    if (op === "remove" && code === 404) {
      return { ...base, verdict: "already", code: null, message: "already gone from the list (404)" };
    }
    const meaning =
      op === "add"
        ? (ADD_REFUSALS[code] ?? `the registry refused to add it (code ${code})`)
        : (REMOVE_REFUSALS[code] ?? `the registry refused to remove it (code ${code})`);
    return { ...base, verdict: "refused", code, message: meaning };
  });
}

/** Outcomes of items whose request failed: their state is unknown until the next read. */
export function failedRequestOutcomes(
  listName: string,
  op: ItemOp,
  sent: readonly string[],
  reason: string,
): ReadOutcome[] {
  return sent.map((taxId) => ({
    listName,
    taxId,
    op,
    verdict: "unanswered",
    code: NO_ITEM_ANSWER,
    message: `request failed: ${reason}`,
  }));
}

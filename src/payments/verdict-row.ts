/**
 * A row's verdict put together (pure): the checked row with its detail (the verdict's own words,
 * then how the payee was found, a verification, what --online could not settle) and next step.
 * Module-level functions rather than closures made per row: a batch judges hundreds of thousands.
 */

import type { PaymentRow } from "./batch-row.ts";
import { describeUnverified, type UnverifiedChange } from "./evidence.ts";
import { nextStep, type StepVoice } from "./next-step.ts";
import type { CheckedRow, Knowledge, KnownBusiness, Verdict, Verification } from "./verdicts.ts";

/** What judging one row has found so far, for finish and withAlso. */
export interface Judging {
  row: PaymentRow;
  knowledge: Knowledge;
  holdDays: number;
  readableBase: string | null;
  account: string | null;
  foundBy: "tax_id" | "account" | null;
  business: KnownBusiness | undefined;
  unverified: readonly UnverifiedChange[];
  badAmount: string | undefined;
  /** Said after the verdict's own detail (how the payee was found, a verification, ...). */
  notes: string[];
  onlineNote: string;
  verified: Verification | null;
  voice: StepVoice;
}

/** The checked row. Its fields are listed, not spread: spreading made this the check's slowest line. */
export function finish(
  j: Judging,
  verdict: Verdict,
  detail: string,
  addedOn: string | null = null,
): CheckedRow {
  const { row } = j;
  return {
    line: row.line,
    taxId: row.taxId,
    bankAccount: row.bankAccount,
    amount: row.amount,
    amountRaw: row.amountRaw,
    amountProblem: row.amountProblem,
    currency: row.currency,
    reference: row.reference,
    name: row.name,
    verdict,
    detail:
      // Most rows have nothing to add: their detail is the verdict's own words, with no arrays made.
      j.notes.length === 0 && j.onlineNote === ""
        ? detail
        : [detail, ...j.notes, j.onlineNote].filter((part) => part !== "").join("; "),
    nextStep:
      verdict === "ok"
        ? null
        : nextStep(verdict, {
            taxBase: j.readableBase,
            account: j.account,
            holdDays: j.holdDays,
            addedOn,
            unverified: j.unverified,
            online: j.knowledge.online ?? false,
            voice: j.voice,
          }),
    taxBase: j.readableBase,
    payeeFoundBy: j.foundBy,
    account: j.account,
    registryName: j.business?.name ?? null,
    verifiedBy: j.verified?.by ?? null,
    verifiedOn: j.verified?.on ?? null,
  };
}

/**
 * A worse verdict's detail still names the unverified change (it may be why the account looks
 * wrong) and a bad amount, so the file is fixed in one pass.
 */
export function withAlso(j: Judging, text: string): string {
  const extra = [
    j.unverified.length > 0 ? describeUnverified(j.unverified, j.holdDays) : "",
    j.badAmount ?? "",
  ];
  return [...new Set([text, ...extra])].filter((part) => part !== "").join("; ");
}

/**
 * A row's verdict put together (pure): the checked row with its detail (the verdict's own words,
 * then how the payee was found, a verification, what --online could not settle) and next step.
 * Module-level functions rather than closures made per row: a batch judges hundreds of thousands.
 */

import type { UnverifiedChange } from "../changes/evidence.ts";
import type { PaymentRow } from "../formats/batch-row.ts";
import type { Said } from "../said.ts";
import { detailSaid, detailText } from "./detail-said.ts";
import { nextStepSaid, type StepVoice } from "./next-step.ts";
import type { CheckedRow, Knowledge, KnownBusiness, Verdict, Verification } from "./verdict-terms.ts";

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
  badAmount: Said | undefined;
  /** Said after the verdict's own detail (how the payee was found, a verification, ...). */
  notes: Said[];
  onlineNote: Said | null;
  verified: Verification | null;
  voice: StepVoice;
}

/** The checked row. Its fields are listed, not spread: spreading made this the check's slowest line. */
export function finish(
  j: Judging,
  verdict: Verdict,
  said: Said | readonly Said[],
  addedOn: string | null = null,
): CheckedRow {
  const { row } = j;
  const own: readonly Said[] = Array.isArray(said) ? said : [said as Said];
  // Most rows have nothing to add: their detail is the verdict's own words, with no arrays made.
  const parts =
    j.notes.length === 0 && j.onlineNote === null
      ? own
      : [...own, ...j.notes, ...(j.onlineNote ? [j.onlineNote] : [])];
  const step =
    verdict === "ok"
      ? null
      : nextStepSaid(verdict, {
          taxBase: j.readableBase,
          account: j.account,
          holdDays: j.holdDays,
          addedOn,
          unverified: j.unverified,
          online: j.knowledge.online ?? false,
          voice: j.voice,
        });
  return checkedRow(row, {
    verdict,
    detail: parts.length === 0 ? "" : detailText(parts),
    detailSaid: parts,
    nextStep: step?.text ?? null,
    nextStepSaid: step,
    taxBase: j.readableBase,
    payeeFoundBy: j.foundBy,
    account: j.account,
    registryName: j.business?.name ?? null,
    verifiedBy: j.verified?.by ?? null,
    verifiedOn: j.verified?.on ?? null,
  });
}

/** What a verdict adds to its row. */
export type VerdictFields = Omit<CheckedRow, keyof PaymentRow>;

/**
 * `row` with a verdict's fields: every checked row is made here, its fields listed in one order
 * (one shape for V8), whether judged or taken from an earlier row's verdict (verdict-memo.ts).
 */
export function checkedRow(row: PaymentRow, v: VerdictFields): CheckedRow {
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
    verdict: v.verdict,
    detail: v.detail,
    detailSaid: v.detailSaid,
    nextStep: v.nextStep,
    nextStepSaid: v.nextStepSaid,
    taxBase: v.taxBase,
    payeeFoundBy: v.payeeFoundBy,
    account: v.account,
    registryName: v.registryName,
    verifiedBy: v.verifiedBy,
    verifiedOn: v.verifiedOn,
  };
}

/**
 * A worse verdict's detail still names the unverified change (it may be why the account looks
 * wrong) and a bad amount, so the file is fixed in one pass.
 */
export function withAlso(j: Judging, said: Said): Said[] {
  if (j.unverified.length === 0 && j.badAmount === undefined) return [said];
  const out = [said, ...j.unverified.map((c) => detailSaid.unverifiedChange(c, j.holdDays))];
  if (j.badAmount && j.badAmount.text !== said.text) out.push(j.badAmount);
  return out;
}

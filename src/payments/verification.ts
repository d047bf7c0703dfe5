/**
 * A person's confirmation, made out of band, that an account belongs to a business (`payments
 * verify`, the console's verify form). The tax number and account are checked with the same
 * parsers as a payment file's and kept in their canonical forms, so the check finds the
 * verification whatever form the batch writes them in. What it releases is the verdicts'
 * business (src/payments/verdicts.ts): the holds that account changes dated on or before the
 * verification's day caused, for that business and account only.
 */
import type { Database } from "../db/connect.ts";
import { describeTaxIdProblem, taxBaseOf } from "../taxid.ts";
import { parseAccount } from "./accounts.ts";
import {
  insertVerification,
  selectVerifications,
  type VerificationFilter,
  type VerificationRow,
} from "./sql/payee-verifications.ts";

export interface VerificationInput {
  account: string;
  taxId: string;
  by: string;
  note: string | null;
  at?: Date;
}

export type VerificationResult =
  | { ok: true; verification: VerificationRow }
  | { ok: false; problems: string[] };

/** Longest `by` and `note` kept: a name and a sentence or two, not a document. */
const MAX_BY = 200;
const MAX_NOTE = 2000;

/** The canonical tax base and account of an input, or every problem with it at once. */
export function checkVerificationInput(
  v: VerificationInput,
):
  | { ok: true; taxBase: string; account: string; by: string; note: string | null }
  | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const taxBase = taxBaseOf(v.taxId) ?? v.taxId.trim();
  const taxProblem = describeTaxIdProblem(taxBase);
  if (taxProblem) problems.push(`--tax-id: ${taxProblem}`);
  const account = parseAccount(v.account);
  if (!account.ok) problems.push(`account: ${account.problem}`);
  const by = v.by.trim();
  if (by === "") problems.push("--by: say who confirmed the account (a name), it must not be empty");
  else if (by.length > MAX_BY) problems.push(`--by: at most ${MAX_BY} characters`);
  const note = v.note?.trim() || null;
  if (note !== null && note.length > MAX_NOTE) problems.push(`--note: at most ${MAX_NOTE} characters`);
  if (problems.length > 0 || !account.ok) return { ok: false, problems };
  return { ok: true, taxBase, account: account.account, by, note };
}

/** Records the verification; nothing is written when the input has a problem. */
export async function verifyPayee(
  db: Database,
  v: VerificationInput,
  timeZone = "Europe/Budapest",
): Promise<VerificationResult> {
  const checked = checkVerificationInput(v);
  if (!checked.ok) return checked;
  const verification = await insertVerification(
    db.sql,
    {
      taxId: checked.taxBase,
      account: checked.account,
      by: checked.by,
      note: checked.note,
      at: v.at ?? new Date(),
    },
    timeZone,
  );
  return { ok: true, verification };
}

/** Verifications newest first, of one business or account when the filter names one. */
export async function listVerifications(
  db: Database,
  filter: VerificationFilter,
  timeZone = "Europe/Budapest",
): Promise<VerificationRow[]> {
  return selectVerifications(db.sql, filter, timeZone);
}

export type { VerificationFilter, VerificationRow };

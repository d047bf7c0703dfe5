/**
 * The words every part of the payment check shares (pure types and constants): the verdicts, what
 * the guard knows of businesses and accounts, a checked row, and what a next step is told.
 */
import type { ChangeEvidence, UnverifiedChange } from "../changes/evidence.ts";
import type { PaymentRow } from "../formats/batch-row.ts";
import type { Said } from "../said.ts";

export const VERDICTS = [
  "invalid_tax_id",
  "invalid_account",
  "unknown_account_holder",
  "business_ceased",
  "status_unverified",
  "business_suspended",
  "account_removed",
  "account_not_registered",
  "name_mismatch",
  "name_unverified",
  "invalid_amount",
  "account_recently_changed",
  "account_change_unverified",
  "account_unconfirmed",
  "unknown_business",
  "not_watched",
  "ok",
] as const;
export type Verdict = (typeof VERDICTS)[number];

/** Verdicts that let a payment go: everything else holds the batch (exit 2). */
export const PASSING: ReadonlySet<Verdict> = new Set(["ok", "not_watched"]);

/** A heading whose latest change regwatch could not read: what is stored for it may no longer hold. */
export interface UnreadHeading {
  heading: string;
  /** Day of the unread change. */
  since: string;
  /** Why its values are not known, in words. */
  why: string;
  /** The same as a reason code (src/changes/evidence.ts) and the stored error it quotes. */
  reason?: string;
  error?: string;
}

/** Headings whose values the guard judges by: an unread change of one holds the payment as unverified. */
export const STATUS_HEADINGS = ["status", "status_code"] as const;
export const NAME_HEADINGS = ["long_name", "full_name", "name", "short_name"] as const;
export const JUDGED_HEADINGS: ReadonlySet<string> = new Set<string>([...STATUS_HEADINGS, ...NAME_HEADINGS]);

export interface KnownBusiness {
  taxId: string;
  /** The name regwatch shows for it (profile, else search record). */
  name: string | null;
  /** 0 ceased, 1 operating, 2 suspended; null when no record says. */
  statusCode: number | null;
  /** The day of the status's newest evidence, and where it came from (change_file, search, profile). */
  statusOn?: string | null;
  statusSource?: string | null;
  /** companies, self_employed, budget_orgs, civil_orgs; null when no record says. */
  type?: string | null;
  /** Every name the registry gives it today and during the hold period (full, short, former). */
  names?: readonly string[];
  /** Headings whose latest change was not read (v_unread_headings). */
  unread?: readonly UnreadHeading[];
}

/** One business holding one account, as regwatch.v_bank_accounts shows it. */
export interface KnownAccount {
  taxId: string;
  account: string;
  currentlyRegistered: boolean;
  /** Latest day the account was added (by a change, or first listed by a newer record). */
  addedOn: string | null;
  /** What showed that addition: change, search, profile or baseline. */
  addedSource?: string | null;
  /** Of an account no longer registered: the day a record or change first no longer listed it. */
  removedOn?: string | null;
}

/** The newest confirmation, made out of band, that an account belongs to a business. */
export interface Verification {
  taxId: string;
  account: string;
  by: string;
  /** Day of the verification in the registry's time zone. */
  on: string;
  note: string | null;
}

export interface KnowledgeIndex {
  byTaxId: ReadonlyMap<string, readonly KnownAccount[]>;
  byAccount: ReadonlyMap<string, readonly KnownAccount[]>;
  changesByTaxId: ReadonlyMap<string, readonly ChangeEvidence[]>;
}

export interface Knowledge {
  businesses: ReadonlyMap<string, KnownBusiness>;
  /** Tax ids on a watch list. */
  watched: ReadonlySet<string>;
  /** Every business-account pair whose account or business occurs in the batch. */
  accounts: readonly KnownAccount[];
  /** bank_accounts changes of the batch's businesses whose values are not known. */
  changes: readonly ChangeEvidence[];
  /** What --online could not settle for a row ("not checked online: ..."), by payeeKey(tax base, account). */
  onlineNotes: ReadonlyMap<string, Said>;
  /** The check asked the search interface (--online). */
  online?: boolean;
  /** Newest verification of each payee and account, by payeeKey(tax base, account). */
  verifications?: ReadonlyMap<string, Verification>;
  /** The accounts and changes above indexed already (loadKnowledge); made from them when absent. */
  index?: KnowledgeIndex;
}

export interface CheckedRow extends PaymentRow {
  verdict: Verdict;
  detail: string;
  /** The detail's sentences as codes and values (the console says them in its reader's language). */
  detailSaid: readonly Said[];
  /** What to do before the payment may go; null for ok. */
  nextStep: string | null;
  /** The next step's code and values (src/payments/next-step.ts nextStepSaid); null for ok. */
  nextStepSaid: Said | null;
  /** The payee's tax base: the file's when readable, else the business found holding the account. */
  taxBase: string | null;
  payeeFoundBy: "tax_id" | "account" | null;
  /** Canonical account, when readable. */
  account: string | null;
  /** The registry's name of the payee. */
  registryName: string | null;
  /** A verification that released a hold: who made it and on which day. */
  verifiedBy: string | null;
  verifiedOn: string | null;
}

export interface StepContext {
  /** Tax base number of the row's payee, when readable. */
  taxBase: string | null;
  /** Canonical account, when readable. */
  account: string | null;
  holdDays: number;
  /** Day the account was added (account_recently_changed). */
  addedOn: string | null;
  /** The business's unverified changes, newest first (account_change_unverified). */
  unverified: readonly UnverifiedChange[];
  /** The check ran with --online. */
  online: boolean;
  /** Whose words: the CLI's commands (default), or the console's buttons and pages. */
  voice?: StepVoice;
}

export type StepVoice = "cli" | "console";

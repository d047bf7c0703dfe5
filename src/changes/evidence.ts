/**
 * Which bank_accounts changes leave a business's accounts unknown (pure). A change whose values
 * regwatch does not have (its file not fetched, not parsed, not recognised, giving no value for
 * it, or ordered ambiguously among the day's changes) may have put any account in place, so the
 * guard cannot call a payment to that business safe: the change holds it while it is within the
 * hold period, like a change that is known to have added the account, and after that for as
 * long as no later record says which accounts hold.
 */
import { addDays } from "../dates.ts";

/** What the database says about one bank_accounts change's values (src/payments/sql/evidence.ts loads it). */
export interface ChangeEvidence {
  taxId: string;
  changeDate: string;
  /** change_files.status of its file; null when no file row exists. */
  fileStatus: string | null;
  parseStatus: string | null;
  fileError: string | null;
  parseError: string | null;
  /** change_values holds a bank_accounts row for this change. */
  hasValue: boolean;
  /** That row's new value is a list of accounts (or one account), not null. */
  valueReadable: boolean;
  /** That row's order among the day's changes of the heading is ambiguous. */
  ambiguous: boolean;
  /** A search record read after the change, or a later change with known values, lists the accounts. */
  superseded: boolean;
}

export type UnknownReason =
  | "no_file"
  | "pending"
  | "failed"
  | "refused"
  | "skipped"
  | "not_parsed"
  | "unrecognised"
  | "parse_failed"
  | "unattributed"
  | "no_value"
  | "no_new_value"
  | "ambiguous";

export interface UnverifiedChange {
  changeDate: string;
  reason: UnknownReason;
  /** Why the values are unknown, in words (file errors included as stored). */
  why: string;
  /** The stored error `why` quotes (shortError's form), "" when none. */
  error: string;
  /** Within the hold period; otherwise it holds only because nothing later supersedes it. */
  withinHold: boolean;
}

const STATUS_REASONS: Record<string, UnknownReason> = {
  pending: "pending",
  failed: "failed",
  refused: "refused",
  skipped: "skipped",
};

const PARSE_REASONS: Record<string, UnknownReason> = {
  unrecognised: "unrecognised",
  failed: "parse_failed",
  unattributed: "unattributed",
};

/** Why the change's values are not known; null when they are. */
export function unknownReason(e: ChangeEvidence): UnknownReason | null {
  if (e.fileStatus === null) return "no_file";
  if (e.parseStatus === "parsed" && e.hasValue) {
    if (!e.valueReadable) return "no_new_value";
    return e.ambiguous ? "ambiguous" : null;
  }
  // A file fetched again after it gained this change keeps its old parse status until parsed.
  if (e.fileStatus !== "fetched") return STATUS_REASONS[e.fileStatus] ?? "pending";
  if (e.parseStatus === "parsed") return "no_value";
  return (e.parseStatus && PARSE_REASONS[e.parseStatus]) || "not_parsed";
}

/** Stored error texts can be long (a server's page); the detail keeps their start. */
export function shortError(text: string | null): string {
  if (!text) return "";
  const flat = text.replace(/\s+/g, " ").trim();
  return `: ${flat.length > 160 ? `${flat.slice(0, 159)}…` : flat}`;
}

export function describeReason(
  reason: UnknownReason,
  e: Pick<ChangeEvidence, "fileError" | "parseError">,
  heading = "bank_accounts",
): string {
  switch (reason) {
    case "no_file":
      return "no change file is recorded for it";
    case "pending":
      return "its change file has not been fetched yet";
    case "failed":
      return `fetching its change file failed${shortError(e.fileError)}`;
    case "refused":
      return "its change file's address is outside REGWATCH_FILE_ORIGINS, so it is never fetched";
    case "skipped":
      return "its change file is left out by REGWATCH_FETCH_FILES";
    case "not_parsed":
      return "its change file has not been parsed yet";
    case "unrecognised":
      return "its change file's format is not recognised";
    case "parse_failed":
      return `its change file could not be read${shortError(e.parseError)}`;
    case "unattributed":
      return "its change file's entries could not be given to this business";
    case "no_value":
      return `its change file gives no ${heading} value for this change`;
    case "no_new_value":
      return `its change file gives no new ${heading} value (null)`;
    case "ambiguous":
      return `no chain of old and new values decides the order of that day's ${heading} changes`;
  }
}

/** The stored error a reason's words quote, in shortError's form; "" for the others. */
export function reasonError(
  reason: UnknownReason,
  e: Pick<ChangeEvidence, "fileError" | "parseError">,
): string {
  if (reason === "failed") return shortError(e.fileError);
  return reason === "parse_failed" ? shortError(e.parseError) : "";
}

/**
 * The business's changes that hold its payments, newest first: those within the hold period
 * (on or after today - holdDays, future dates included) whose values are unknown, and older
 * ones that nothing later supersedes.
 */
export function unverifiedChanges(
  evidence: readonly ChangeEvidence[],
  taxBase: string,
  today: string,
  holdDays: number,
): UnverifiedChange[] {
  const cutoff = addDays(today, -holdDays);
  const out: UnverifiedChange[] = [];
  for (const e of evidence) {
    if (e.taxId !== taxBase) continue;
    const reason = unknownReason(e);
    if (reason === null) continue;
    const withinHold = e.changeDate >= cutoff;
    if (!withinHold && e.superseded) continue;
    out.push({
      changeDate: e.changeDate,
      reason,
      why: describeReason(reason, e),
      error: reasonError(reason, e),
      withinHold,
    });
  }
  return out.sort((a, b) => b.changeDate.localeCompare(a.changeDate));
}

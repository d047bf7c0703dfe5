/**
 * Why a changed heading's values are not known, in words (pure): the same reasons the payment
 * guard gives for a bank_accounts change, for any heading, from its file's status as stored.
 */
import { describeReason, type UnknownReason, unknownReason } from "./evidence.ts";

/** What is stored about the file of a change whose values of a heading regwatch does not have. */
export interface UnreadFile {
  fileStatus: string | null;
  parseStatus: string | null;
  fileError?: string | null;
  parseError?: string | null;
}

/** The reason code of an unread heading (never null: there is no value row). */
export function unreadReason(file: UnreadFile): UnknownReason {
  return (
    unknownReason({
      taxId: "",
      changeDate: "",
      fileStatus: file.fileStatus,
      parseStatus: file.parseStatus,
      fileError: file.fileError ?? null,
      parseError: file.parseError ?? null,
      hasValue: false,
      valueReadable: false,
      ambiguous: false,
      superseded: false,
    }) ?? "no_value"
  );
}

/** Why the heading's values are not known, e.g. "its change file's format is not recognised". */
export function unreadWhy(heading: string, file: UnreadFile): string {
  return describeReason(
    unreadReason(file),
    { fileError: file.fileError ?? null, parseError: file.parseError ?? null },
    heading,
  );
}

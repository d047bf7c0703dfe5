/**
 * Whether a refused key holds back an account's jobs, and how that is said. Pure: the refusal
 * comes from key_refusals, the key's fingerprint from the variable's value now. A worker runs
 * none of the account's registry jobs while the variable still holds the refused key on the day
 * of the refusal; a new key, or the next day's slot, lets the next job try.
 */
import { zonedStamp } from "../dates.ts";
import type { KeyRefusalRow } from "./sql/key-refusals.ts";

export type KeyHold = "held" | "key changed" | "next day";

/** `fingerprint`: of the variable's value now (undefined when unset here). `today`: the account's local day. */
export function keyHold(refusal: KeyRefusalRow, fingerprint: string | undefined, today: string): KeyHold {
  if (fingerprint !== undefined && fingerprint !== refusal.keyFingerprint) return "key changed";
  return refusal.refusedDay < today ? "next day" : "held";
}

/**
 * One sentence for logs, `status --fleet` and `doctor`; names the variable, never the key. The
 * time in `timeZone` with its name (`status --fleet` passes REGWATCH_TZ, as for its other times).
 */
export function describeKeyHold(refusal: KeyRefusalRow, hold: KeyHold, timeZone = "UTC"): string {
  const status = refusal.httpStatus === null ? "" : ` ${refusal.httpStatus}`;
  const when = `the registry refused the key in ${refusal.keyVariable} (${refusal.endpoint} answered${status}) at ${zonedStamp(refusal.refusedAt, timeZone)}`;
  if (hold === "key changed")
    return `${when}; ${refusal.keyVariable} now holds another key, which the next job tries`;
  if (hold === "next day") return `${when}; the next day's job tries the key again`;
  return `${when}; the account's jobs wait until ${refusal.keyVariable} holds another key or the next day's slot`;
}

/**
 * Who acts, for every command that records a person (alert rules, the alert lifecycle, payment
 * verifications and recorded checks): `--by`, else the operating-system user running it. Only
 * when neither says a name must the operator give `--by`.
 */
import { userInfo } from "node:os";
import { UsageError } from "../errors.ts";

/** The help text of every `--by`. */
export const BY_HELP = "who is acting (default: the operating-system user)";

/** The operating-system user, or undefined where there is none (a container's numeric uid). */
export function osUser(): string | undefined {
  try {
    return userInfo().username.trim() || undefined;
  } catch {
    return process.env.USER?.trim() || undefined;
  }
}

/** `--by` trimmed, else the operating-system user; a blank `--by` or no name at all is a usage error. */
export function actorName(by: string | undefined): string {
  if (by !== undefined) {
    const given = by.trim();
    if (!given) throw new UsageError("--by must name who is acting");
    return given;
  }
  const user = osUser();
  if (!user) throw new UsageError("no operating-system user name to record: give --by WHO");
  return user;
}

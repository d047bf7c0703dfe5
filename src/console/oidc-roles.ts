/**
 * The operator's role map applied to an ID token's claims (pure): the highest role of the rules
 * that match and the accounts of all of them, or undefined when none matches (sign-in refused).
 */
import type { OidcRule } from "../config-oidc.ts";
import type { ConsoleRole } from "./users.ts";

const RANK: Record<ConsoleRole, number> = { reader: 0, reviewer: 1, admin: 2 };

export interface MappedAccess {
  role: ConsoleRole;
  accounts: string[];
}

export function mapClaims(
  rules: readonly OidcRule[],
  claims: Record<string, unknown>,
): MappedAccess | undefined {
  const matching = rules.filter((rule) => holds(claimAt(claims, rule.claim), rule.value));
  if (matching.length === 0) return undefined;
  const role = matching.map((r) => r.role).reduce((a, b) => (RANK[b] > RANK[a] ? b : a));
  const accounts = [...new Set(matching.flatMap((r) => r.accounts))].sort();
  return { role, accounts };
}

/** A claim by name, else by a dotted path into nested objects (`realm_access.roles`). */
function claimAt(claims: Record<string, unknown>, path: string): unknown {
  if (path in claims) return claims[path];
  let at: unknown = claims;
  for (const part of path.split(".")) {
    if (at === null || typeof at !== "object" || Array.isArray(at)) return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

function holds(claim: unknown, value: string): boolean {
  if (Array.isArray(claim)) return claim.some((one) => scalarText(one) === value);
  return scalarText(claim) === value;
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/** The console user name from the first of `nameClaims` the token carries, or undefined. */
export function nameFromClaims(
  nameClaims: readonly string[],
  claims: Record<string, unknown>,
): string | undefined {
  for (const name of nameClaims) {
    const value = claims[name];
    if (typeof value === "string" && value.trim() !== "") return value.trim().normalize("NFC");
  }
  return undefined;
}

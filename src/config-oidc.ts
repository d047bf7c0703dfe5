/**
 * Company sign-in settings (REGWATCH_OIDC_*): checked together at start, every problem named, so
 * a console never starts half-configured. The role map is JSON an identity admin writes: a list of
 * rules, each a claim of the ID token, a value it must hold, the role given and the accounts.
 */
import { readFileSync } from "node:fs";

export const OIDC_ROLES = ["reader", "reviewer", "admin"] as const;
export type OidcRole = (typeof OIDC_ROLES)[number];

/** One line of the role map: whoever's `claim` holds `value` gets `role` (and `accounts`). */
export interface OidcRule {
  /** A claim name, or a dotted path into the token (`realm_access.roles`). */
  claim: string;
  value: string;
  role: OidcRole;
  accounts: string[];
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  /** Undefined: a public client (PKCE alone). */
  clientSecret: string | undefined;
  /** Where the provider sends the browser back: this console's /login/oidc/callback. */
  redirectUrl: string;
  scopes: string;
  /** Claims tried in order for the console user name. */
  nameClaims: string[];
  rules: OidcRule[];
  /** Whether local users (passwords) may still sign in. */
  localUsers: boolean;
  /** Shown on the button: "Sign in with <label>". */
  label: string;
}

/** The raw variables, as config-schema.ts parsed them. */
export interface OidcVariables {
  REGWATCH_OIDC_ISSUER: string | undefined;
  REGWATCH_OIDC_CLIENT_ID: string | undefined;
  REGWATCH_OIDC_CLIENT_SECRET: string | undefined;
  REGWATCH_OIDC_CLIENT_SECRET_FILE: string | undefined;
  REGWATCH_OIDC_REDIRECT_URL: string | undefined;
  REGWATCH_OIDC_ROLE_MAP: string | undefined;
  REGWATCH_OIDC_SCOPES: string;
  REGWATCH_OIDC_NAME_CLAIM: string;
  REGWATCH_OIDC_LOCAL_USERS: boolean;
  REGWATCH_OIDC_LABEL: string | undefined;
}

/** The variables that mean nothing without an issuer (the others have defaults). */
const OPTIONAL_WITHOUT_ISSUER = [
  "REGWATCH_OIDC_CLIENT_ID",
  "REGWATCH_OIDC_CLIENT_SECRET",
  "REGWATCH_OIDC_CLIENT_SECRET_FILE",
  "REGWATCH_OIDC_REDIRECT_URL",
  "REGWATCH_OIDC_ROLE_MAP",
  "REGWATCH_OIDC_LABEL",
] as const satisfies readonly (keyof OidcVariables)[];

const ACCOUNT_NAME = /^[a-z][a-z0-9_]{0,29}$/;
const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** Whether plain http may be used with this URL: only on the machine itself (tests, a local provider). */
export function isLoopbackUrl(url: string): boolean {
  return LOOPBACK.has(new URL(url).hostname);
}

/** The company sign-in settings, undefined when REGWATCH_OIDC_ISSUER is unset; problems are pushed. */
export function oidcConfigOf(v: OidcVariables, problems: string[]): OidcConfig | undefined {
  if (!v.REGWATCH_OIDC_ISSUER) {
    for (const name of OPTIONAL_WITHOUT_ISSUER.filter((n) => v[n] !== undefined))
      problems.push(`${name}: is set but REGWATCH_OIDC_ISSUER is not (company sign-in is off)`);
    if (!v.REGWATCH_OIDC_LOCAL_USERS)
      problems.push(
        "REGWATCH_OIDC_LOCAL_USERS: off without REGWATCH_OIDC_ISSUER would leave nobody able to sign in",
      );
    return undefined;
  }
  const before = problems.length;
  const issuer = v.REGWATCH_OIDC_ISSUER;
  if (new URL(issuer).protocol !== "https:" && !isLoopbackUrl(issuer))
    problems.push(
      "REGWATCH_OIDC_ISSUER: must be an https:// URL (plain http only on 127.0.0.1 or localhost)",
    );
  if (!v.REGWATCH_OIDC_CLIENT_ID)
    problems.push("REGWATCH_OIDC_CLIENT_ID: required with REGWATCH_OIDC_ISSUER");
  const clientSecret = secretOf(v, problems);
  const redirectUrl = v.REGWATCH_OIDC_REDIRECT_URL;
  if (!redirectUrl) {
    problems.push(
      "REGWATCH_OIDC_REDIRECT_URL: required with REGWATCH_OIDC_ISSUER: the console's address as people reach it, ending in /login/oidc/callback",
    );
  } else if (!new URL(redirectUrl).pathname.endsWith("/login/oidc/callback")) {
    problems.push(
      `REGWATCH_OIDC_REDIRECT_URL: must end in /login/oidc/callback, got ${JSON.stringify(redirectUrl)}`,
    );
  }
  if (!v.REGWATCH_OIDC_ROLE_MAP) {
    problems.push(
      'REGWATCH_OIDC_ROLE_MAP: required with REGWATCH_OIDC_ISSUER, e.g. [{"claim":"groups","value":"regwatch-admins","role":"admin"}]',
    );
  }
  const rules = v.REGWATCH_OIDC_ROLE_MAP ? parseRoleMap(v.REGWATCH_OIDC_ROLE_MAP, problems) : [];
  if (!v.REGWATCH_OIDC_SCOPES.split(/\s+/).includes("openid"))
    problems.push(`REGWATCH_OIDC_SCOPES: must include openid, got ${JSON.stringify(v.REGWATCH_OIDC_SCOPES)}`);
  if (problems.length > before) return undefined;
  return {
    issuer,
    clientId: v.REGWATCH_OIDC_CLIENT_ID!,
    clientSecret,
    redirectUrl: redirectUrl!,
    scopes: v.REGWATCH_OIDC_SCOPES.split(/\s+/).join(" "),
    nameClaims: v.REGWATCH_OIDC_NAME_CLAIM.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    rules,
    localUsers: v.REGWATCH_OIDC_LOCAL_USERS,
    label: v.REGWATCH_OIDC_LABEL ?? new URL(issuer).host,
  };
}

function secretOf(v: OidcVariables, problems: string[]): string | undefined {
  if (v.REGWATCH_OIDC_CLIENT_SECRET && v.REGWATCH_OIDC_CLIENT_SECRET_FILE) {
    problems.push("REGWATCH_OIDC_CLIENT_SECRET_FILE: set only one of it and REGWATCH_OIDC_CLIENT_SECRET");
    return undefined;
  }
  if (!v.REGWATCH_OIDC_CLIENT_SECRET_FILE) return v.REGWATCH_OIDC_CLIENT_SECRET;
  try {
    const secret = readFileSync(v.REGWATCH_OIDC_CLIENT_SECRET_FILE, "utf8").trim();
    if (secret === "") problems.push("REGWATCH_OIDC_CLIENT_SECRET_FILE: the file is empty");
    return secret || undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
    problems.push(
      `REGWATCH_OIDC_CLIENT_SECRET_FILE: cannot read ${JSON.stringify(v.REGWATCH_OIDC_CLIENT_SECRET_FILE)} (${code})`,
    );
    return undefined;
  }
}

/** Parses the role map, naming each bad rule by its place in the list. */
export function parseRoleMap(text: string, problems: string[]): OidcRule[] {
  const where = "REGWATCH_OIDC_ROLE_MAP";
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    problems.push(`${where}: must be JSON (a list of rules): ${(error as Error).message}`);
    return [];
  }
  if (!Array.isArray(value) || value.length === 0) {
    problems.push(
      `${where}: must be a non-empty JSON list of rules like {"claim":"groups","value":"x","role":"reader"}`,
    );
    return [];
  }
  const rules: OidcRule[] = [];
  value.forEach((entry, i) => {
    const at = `${where}: rule ${i + 1}`;
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
      problems.push(`${at} must be an object with claim, value and role`);
      return;
    }
    const r = entry as Record<string, unknown>;
    const unknown = Object.keys(r).filter((k) => !["claim", "value", "role", "accounts"].includes(k));
    const bad: string[] = unknown.map((k) => `has an unknown field "${k}" (claim, value, role, accounts)`);
    if (typeof r.claim !== "string" || r.claim.trim() === "")
      bad.push("needs a claim (a claim name such as groups)");
    if (typeof r.value !== "string" || r.value === "") bad.push("needs a value (a text the claim must hold)");
    if (!OIDC_ROLES.includes(r.role as OidcRole))
      bad.push(`has role ${JSON.stringify(r.role)}: must be reader, reviewer or admin`);
    const accounts = r.accounts ?? [];
    if (!Array.isArray(accounts) || !accounts.every((a) => typeof a === "string" && ACCOUNT_NAME.test(a)))
      bad.push("has accounts that are not a list of account names (lower case letters, digits, _)");
    if (bad.length > 0) {
      problems.push(`${at} ${bad.join("; ")}`);
      return;
    }
    rules.push({
      claim: (r.claim as string).trim(),
      value: r.value as string,
      role: r.role as OidcRole,
      accounts: accounts as string[],
    });
  });
  return rules;
}

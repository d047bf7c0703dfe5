/**
 * Company sign-in's settings, checked at start: the built `regwatch web` names every bad
 * REGWATCH_OIDC_* variable (each bad rule of the role map by its place) and exits 78, never
 * echoing the client secret; the role map's rules applied to claims (highest role, all accounts).
 */
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mapClaims } from "../../src/console/oidc-roles.ts";
import { runCli } from "../helpers/cli.ts";

/** A secret file that is not there and a role map that is not JSON. */
const UNREADABLE = {
  DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
  REGWATCH_OIDC_ISSUER: "https://id.example.com",
  REGWATCH_OIDC_CLIENT_ID: "regwatch",
  REGWATCH_OIDC_CLIENT_SECRET_FILE: path.join(tmpdir(), "no-such-regwatch-secret"),
  REGWATCH_OIDC_REDIRECT_URL: "https://console.example.com/login/oidc/callback",
  REGWATCH_OIDC_ROLE_MAP: "groups=admins:admin",
};
const SECRET = "client-secret-that-must-never-be-printed";

describe("company sign-in settings", () => {
  it("names every bad variable and each bad rule, exit 78, secret never shown", async () => {
    const result = await runCli(["web", "--port", "0"], {
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
      REGWATCH_OIDC_ISSUER: "http://id.example.com",
      REGWATCH_OIDC_CLIENT_SECRET: SECRET,
      REGWATCH_OIDC_REDIRECT_URL: "https://console.example.com/callback",
      REGWATCH_OIDC_ROLE_MAP: JSON.stringify([
        { claim: "groups", value: "admins", role: "owner" },
        { claim: "groups", role: "reader", accounts: ["Acme Ltd"] },
        { claim: "groups", value: "ok", role: "reader", team: "x" },
      ]),
    });
    expect(result.code).toBe(78);
    const said = result.stderr;
    expect(said).toContain("REGWATCH_OIDC_ISSUER: must be an https:// URL");
    expect(said).toContain("REGWATCH_OIDC_CLIENT_ID: required with REGWATCH_OIDC_ISSUER");
    expect(said).toContain("REGWATCH_OIDC_REDIRECT_URL: must end in /login/oidc/callback");
    expect(said).toContain(
      'REGWATCH_OIDC_ROLE_MAP: rule 1 has role "owner": must be reader, reviewer or admin',
    );
    expect(said).toContain("REGWATCH_OIDC_ROLE_MAP: rule 2 needs a value");
    expect(said).toContain("rule 2 needs a value (a text the claim must hold); has accounts that are not");
    expect(said).toContain('REGWATCH_OIDC_ROLE_MAP: rule 3 has an unknown field "team"');
    expect(`${said}${result.stdout}`).not.toContain(SECRET);
  });

  it("reads the secret from a file and refuses a map that is not JSON or a missing file", async () => {
    const result = await runCli(["web", "--port", "0"], {
      ...UNREADABLE,
      REGWATCH_OIDC_LOCAL_USERS: "maybe",
    });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("REGWATCH_OIDC_LOCAL_USERS: must be on or off");
    const second = await runCli(["web", "--port", "0"], {
      ...UNREADABLE,
    });
    expect(second.code).toBe(78);
    expect(second.stderr).toContain("REGWATCH_OIDC_CLIENT_SECRET_FILE: cannot read");
    expect(second.stderr).toContain("ENOENT");
    expect(second.stderr).toContain("REGWATCH_OIDC_ROLE_MAP: must be JSON (a list of rules)");
  });

  it("refuses the password form off with no company sign-in to replace it", async () => {
    const result = await runCli(["web", "--port", "0"], {
      DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
      REGWATCH_OIDC_LOCAL_USERS: "off",
      REGWATCH_OIDC_ROLE_MAP: "[]",
    });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("REGWATCH_OIDC_ROLE_MAP: is set but REGWATCH_OIDC_ISSUER is not");
    // Exactly these two: nothing else of a plain configuration is taken for a sign-in setting.
    expect(result.stderr.match(/REGWATCH_\w+:/g)).toHaveLength(2);
    expect(result.stderr).toContain("REGWATCH_OIDC_LOCAL_USERS: off without REGWATCH_OIDC_ISSUER");
  });
});

describe("the role map applied to claims", () => {
  const rules = [
    { claim: "groups", value: "finance", role: "reader" as const, accounts: ["acme"] },
    { claim: "groups", value: "ops", role: "admin" as const, accounts: ["beta"] },
    { claim: "realm_access.roles", value: "auditor", role: "reviewer" as const, accounts: [] },
    { claim: "email_verified", value: "true", role: "reader" as const, accounts: [] },
  ];

  it("gives the highest role of the matching rules and the accounts of all of them", () => {
    expect(mapClaims(rules, { groups: ["finance", "ops"] })).toEqual({
      role: "admin",
      accounts: ["acme", "beta"],
    });
    expect(mapClaims(rules, { groups: "finance" })).toEqual({ role: "reader", accounts: ["acme"] });
  });

  it("follows a dotted path and compares booleans as text", () => {
    expect(mapClaims(rules, { realm_access: { roles: ["auditor"] } })).toEqual({
      role: "reviewer",
      accounts: [],
    });
    expect(mapClaims(rules, { email_verified: true })).toEqual({ role: "reader", accounts: [] });
  });

  it("maps nobody whose claims match no rule", () => {
    expect(mapClaims(rules, { groups: ["marketing"], realm_access: "auditor" })).toBeUndefined();
    expect(mapClaims(rules, {})).toBeUndefined();
  });
});

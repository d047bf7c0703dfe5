/**
 * What the company sign-in variables (REGWATCH_OIDC_*) do, for people: part of ENV_DOCS
 * (config-docs.ts, which checks each entry), from which docs/configuration.md is generated.
 * Never imported by the program.
 */
export const OIDC_DOCS = {
  REGWATCH_OIDC_ISSUER: {
    group: "console",
    unset: "company sign-in off",
    takes: "an https:// URL (http only on 127.0.0.1 or localhost)",
    text: "Company sign-in (OpenID Connect, [console.md](console.md#company-sign-in)): the identity provider's issuer; its settings are discovered from `<issuer>/.well-known/openid-configuration` when the console starts a sign-in. Set, `REGWATCH_OIDC_CLIENT_ID`, `REGWATCH_OIDC_REDIRECT_URL` and `REGWATCH_OIDC_ROLE_MAP` are required too.",
  },
  REGWATCH_OIDC_CLIENT_ID: {
    group: "console",
    text: "The console's client id at the identity provider.",
  },
  REGWATCH_OIDC_CLIENT_SECRET: {
    group: "console",
    unset: "a public client (PKCE only)",
    text: "The client secret; never logged or stored. Prefer `REGWATCH_OIDC_CLIENT_SECRET_FILE`.",
  },
  REGWATCH_OIDC_CLIENT_SECRET_FILE: {
    group: "console",
    takes: "a file path",
    text: "A file holding the client secret (a Docker or Kubernetes secret); surrounding blanks are ignored. Set only one of this and `REGWATCH_OIDC_CLIENT_SECRET`.",
  },
  REGWATCH_OIDC_REDIRECT_URL: {
    group: "console",
    takes: "an http(s) URL ending in `/login/oidc/callback`",
    text: "The console's callback address as people's browsers reach it (behind a proxy: the proxy's address), registered at the provider as the client's redirect URI.",
  },
  REGWATCH_OIDC_ROLE_MAP: {
    group: "console",
    takes: "a JSON list of rules",
    text: 'Who gets which role: `[{"claim":"groups","value":"regwatch-admins","role":"admin","accounts":["acme"]}]`. A rule matches when the ID token\'s claim (a name, or a dotted path such as `realm_access.roles`) equals the value or is a list holding it; a person gets the highest role of the rules that match and the accounts of all of them; no rule matching, sign-in is refused. Checked at start: each bad rule is named (exit 78).',
  },
  REGWATCH_OIDC_SCOPES: {
    group: "console",
    takes: "scopes separated by blanks, `openid` among them",
    text: "The scopes asked for; add the one your provider needs for a group claim (`groups`).",
  },
  REGWATCH_OIDC_NAME_CLAIM: {
    group: "console",
    takes: "a comma list of claim names",
    text: "The claims tried in order for the person's console user name; the first present one is used (a name local users hold is refused).",
  },
  REGWATCH_OIDC_LOCAL_USERS: {
    group: "console",
    takes: "on or off",
    text: "With company sign-in: `off` hides the password form and refuses `POST /login`, so only the identity provider signs people in.",
  },
  REGWATCH_OIDC_LABEL: {
    group: "console",
    unset: "the issuer's host",
    takes: "at most 80 characters",
    text: 'The provider\'s name on the sign-in button: "Sign in with <label>".',
  },
} as const; // checked as EnvDoc where ENV_DOCS spreads it

/**
 * The accounts file as a function of its text, and the configuration of one account: no database,
 * no process. The CLI's exit statuses for the same problems are in accounts-cli.test.ts.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { accountConfig, chooseAccount, loadAccounts, parseAccounts } from "../../src/accounts.ts";
import { type Config, loadConfig } from "../../src/config.ts";
import { ConfigError, EXIT, UsageError } from "../../src/errors.ts";
import { redactSecrets } from "../../src/secrets.ts";

function problemsOf(text: string, file = "accounts.yaml"): string[] {
  try {
    parseAccounts(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(EXIT.config);
    return [...(error as ConfigError).problems];
  }
  throw new Error("the file was accepted");
}

const dir = mkdtempSync(path.join(tmpdir(), "regwatch-accounts-"));
let files = 0;
/** A configuration whose accounts file holds `text` (a fresh path each time: files are read once). */
function configWith(text: string, env: Record<string, string> = {}): Config {
  const file = path.join(dir, `accounts-${files++}.yaml`);
  writeFileSync(file, text);
  return loadConfig({ REGWATCH_ACCOUNTS_FILE: file, ...env });
}

const TWO = `
accounts:
  - name: acme
    watch_url: https://registry.example/watch/v2/
    search_url: https://registry.example/search/v1
    api_key_env: ACME_KEY
    rate_limit: 20
    schedule: "30 6 * * *"
    timezone: Europe/Vienna
  - name: globex
    watch_url: http://127.0.0.1:9999
    api_key_env: GLOBEX_KEY
    search_api_key_env: GLOBEX_SEARCH_KEY
    file_origins: [http://files.example:8080]
`;

describe("reading the accounts file", () => {
  it("reads a YAML object with accounts, defaults left unset", () => {
    const accounts = parseAccounts(TWO, "fleet.yaml");
    expect(accounts).toEqual([
      {
        name: "acme",
        schema: "regwatch_acme",
        watchUrl: "https://registry.example/watch/v2",
        searchUrl: "https://registry.example/search/v1",
        apiKeyEnv: "ACME_KEY",
        rateLimit: 20,
        schedule: "30 6 * * *",
        timezone: "Europe/Vienna",
      },
      {
        name: "globex",
        schema: "regwatch_globex",
        watchUrl: "http://127.0.0.1:9999",
        apiKeyEnv: "GLOBEX_KEY",
        searchApiKeyEnv: "GLOBEX_SEARCH_KEY",
        fileOrigins: ["http://files.example:8080"],
      },
    ]);
  });

  it("reads a JSON list, also under a name that is neither .json nor .yaml", () => {
    const text = JSON.stringify([{ name: "a", watch_url: "http://x.example", api_key_env: "A_KEY" }]);
    expect(parseAccounts(text, "fleet.json").map((a) => a.name)).toEqual(["a"]);
    expect(parseAccounts(text, "fleet.conf").map((a) => a.schema)).toEqual(["regwatch_a"]);
    expect(
      parseAccounts("- name: b\n  watch_url: http://x.example\n  api_key_env: B\n", "fleet").length,
    ).toBe(1);
  });

  it("names every bad entry by number and name, and every bad field", () => {
    const problems = problemsOf(`
- name: Bad-Name
  watch_url: http://x.example
  api_key_env: K
- name: ok
  api_key_env: K
- name: fast
  watch_url: http://x.example
  api_key_env: K
  rate_limit: 31
- name: extra
  watch_url: http://x.example
  api_key_env: K
  colour: red
- name: keyed
  watch_url: http://x.example
  api_key_env: K
  api_key: s3cr3t-value
- name: timed
  watch_url: http://x.example
  api_key_env: K
  schedule: every morning
  timezone: Mars/Olympus
- name: ok
  watch_url: http://y.example
  api_key_env: K2
`);
    expect(problems).toHaveLength(8);
    const at = (entry: string) => problems.filter((p) => p.includes(`${entry}:`)).join("\n");
    expect(at('entry 1 ("Bad-Name")')).toMatch(/name: must be a lower-case letter/);
    expect(at('entry 2 ("ok")')).toContain("watch_url: is required");
    expect(at('entry 3 ("fast")')).toContain("rate_limit: must be at most 30");
    expect(at('entry 4 ("extra")')).toContain("colour: unknown field");
    expect(at('entry 5 ("keyed")')).toContain(
      "api_key: keys never go in the file; name an environment variable in api_key_env",
    );
    expect(at('entry 6 ("timed")')).toContain("schedule: is not a valid cron expression");
    expect(at('entry 6 ("timed")')).toContain("timezone: is not a known IANA time zone");
    expect(at('entry 7 ("ok")')).toContain('name: "ok" is already used by entry 2');
    // A key written into the file is refused without being repeated.
    expect(problems.join("\n")).not.toContain("s3cr3t-value");
  });

  it("refuses the names whose schema is the fleet's own (regwatch_fleet, regwatch_fleet_parts)", () => {
    const problems = problemsOf(`
- { name: fleet, watch_url: http://x.example, api_key_env: K1 }
- { name: fleet_parts, watch_url: http://x.example, api_key_env: K2 }
- { name: fleet_one, watch_url: http://x.example, api_key_env: K3 }
`);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/entry 1 \("fleet"\): name: is reserved/);
    expect(problems[1]).toMatch(/entry 2 \("fleet_parts"\): name: is reserved/);
  });

  it("refuses a file that is not a list of accounts, an empty one and one that does not parse", () => {
    expect(problemsOf("name: a\nwatch_url: http://x\n")[0]).toContain(
      "unknown top-level field(s) name, watch_url",
    );
    expect(problemsOf('"just text"')[0]).toContain(
      'must be a list of accounts, or an object with an "accounts" list',
    );
    expect(problemsOf("accounts: []")[0]).toContain("lists no account");
    expect(problemsOf("{ not json", "fleet.json")[0]).toContain("is not valid JSON");
    expect(problemsOf("- [unclosed", "fleet.yml")[0]).toContain("is not valid YAML");
    expect(problemsOf("- 3")[0]).toContain("entry 1: must be an object");
  });

  it("names the path of a file it cannot read", () => {
    const config = loadConfig({ REGWATCH_ACCOUNTS_FILE: path.join(dir, "missing.yaml") });
    expect(() => loadAccounts(config)).toThrow(
      /REGWATCH_ACCOUNTS_FILE: cannot read .*missing\.yaml \(no such file\)/,
    );
  });
});

describe("the configuration of an account", () => {
  const env = {
    ACME_KEY: "acme-secret-key",
    GLOBEX_KEY: "globex-key-1",
    GLOBEX_SEARCH_KEY: "globex-search-2",
  };

  it("puts the account's registry settings and schema into the global configuration", () => {
    const base = configWith(TWO, {
      REGWATCH_WATCH_URL: "http://global.example",
      REGWATCH_API_KEY: "global-key",
      REGWATCH_REQUEST_TIMEOUT_MS: "1234",
    });
    const [acme, globex] = loadAccounts(base)!;
    const a = accountConfig(base, acme!, env);
    expect(a).toMatchObject({
      account: "acme",
      schema: "regwatch_acme",
      watchUrl: "https://registry.example/watch/v2",
      searchUrl: "https://registry.example/search/v1",
      apiKey: "acme-secret-key",
      searchApiKey: "acme-secret-key",
      fileOrigins: ["https://registry.example"],
      rateLimit: 20,
      schedule: "30 6 * * *",
      tz: "Europe/Vienna",
      requestTimeoutMs: 1234,
    });
    const g = accountConfig(base, globex!, env);
    expect(g).toMatchObject({
      searchUrl: undefined,
      apiKey: "globex-key-1",
      searchApiKey: "globex-search-2",
      fileOrigins: ["http://files.example:8080"],
      rateLimit: base.rateLimit,
      schedule: base.schedule,
      tz: base.tz,
    });
    // The keys are secrets from now on: every sink scrubs them.
    expect(redactSecrets("sent acme-secret-key and globex-search-2")).toBe("sent [redacted] and [redacted]");
  });

  it("names an unset, empty or control-character key variable, never its value", () => {
    const base = configWith(TWO);
    const [acme, globex] = loadAccounts(base)!;
    expect(() => accountConfig(base, acme!, {})).toThrow(/ACME_KEY: must hold the API key of account "acme"/);
    expect(() => accountConfig(base, acme!, { ACME_KEY: "  " })).toThrow(/ACME_KEY: .*unset or empty/);
    try {
      accountConfig(base, globex!, { GLOBEX_KEY: "line\nbreak-key" });
      throw new Error("accepted");
    } catch (error) {
      const problems = (error as ConfigError).problems;
      expect(problems).toEqual([
        'GLOBEX_KEY: must not contain control characters (newline, carriage return, tab, ...); account "globex" names it in api_key_env, and its value would be sent to the registry as X-Api-Key',
        'GLOBEX_SEARCH_KEY: must hold the API key of account "globex" (its search_api_key_env); it is unset or empty',
      ]);
    }
  });
});

describe("choosing the account of a command", () => {
  const usage = (fn: () => unknown): string => {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      return (error as Error).message;
    }
    throw new Error("no usage error");
  };

  it("without an accounts file: the global configuration, and --account refused", () => {
    const base = loadConfig({});
    expect(chooseAccount(base, undefined, {})).toBe(base);
    expect(usage(() => chooseAccount(base, "acme", {}))).toBe(
      "--account: no accounts file: REGWATCH_ACCOUNTS_FILE is not set",
    );
  });

  it("with several accounts: the name is required and must be listed", () => {
    const base = configWith(TWO);
    const env = { ACME_KEY: "k1-acme", GLOBEX_KEY: "k2-globex", GLOBEX_SEARCH_KEY: "k3-globex" };
    expect(chooseAccount(base, "globex", env).schema).toBe("regwatch_globex");
    expect(usage(() => chooseAccount(base, undefined, env))).toBe(
      "--account NAME is required: 2 accounts (acme, globex)",
    );
    expect(usage(() => chooseAccount(base, "initech", env))).toContain(
      'no account "initech" in the accounts file (accounts: acme, globex)',
    );
  });

  it("with one account: the name may be left out; without keys when asked", () => {
    const base = configWith("- name: solo\n  watch_url: http://solo.example\n  api_key_env: SOLO_KEY\n");
    expect(chooseAccount(base, undefined, { SOLO_KEY: "solo-key" })).toMatchObject({
      account: "solo",
      schema: "regwatch_solo",
    });
    expect(chooseAccount(base, undefined, {}, { withoutKeys: true })).toMatchObject({
      account: "solo",
      apiKey: undefined,
    });
  });
});

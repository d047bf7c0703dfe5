/**
 * What an accounts file may hold as keys (issue 37, points 1 and 15): two accounts holding one key
 * are refused when the file is read, by every command that reads it, naming both accounts and the
 * variables but never the key; a variable that holds regwatch's own settings or a database's
 * address is no key variable, and neither is one whose value is a postgres:// address.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { looksLikeDatabaseAddress, refusedKeyVariable, sharedKeyProblems } from "../../src/account-keys.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const dir = mkdtempSync(path.join(tmpdir(), "regwatch-key-variables-"));
function accountsFile(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

const SHARED_KEY = "sk_live_one-key-for-two-accounts";
const TWO = accountsFile(
  "two.yaml",
  `accounts:
  - { name: acme, watch_url: "http://127.0.0.1:9/v2", api_key_env: ACME_API_KEY }
  - { name: globex, watch_url: "http://127.0.0.1:9/v2", api_key_env: GLOBEX_API_KEY }
`,
);

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

describe("two accounts holding one key", () => {
  const env = () => ({
    DATABASE_URL: t.url,
    REGWATCH_ACCOUNTS_FILE: TWO,
    ACME_API_KEY: SHARED_KEY,
    GLOBEX_API_KEY: SHARED_KEY,
  });
  const commands: string[][] = [
    ["worker", "--concurrency", "1"],
    ["daemon", "--no-worker"],
    ["enqueue", "sync", "--all"],
    ["status", "--fleet"],
    ["sync", "--account", "acme"],
    ["backfill", "--account", "globex", "--from", "2024-01-01", "--to", "2024-01-07"],
    ["changes", "--account", "acme"],
    ["doctor", "--all"],
    ["migrate"],
  ];
  for (const args of commands) {
    it(`are refused by \`${args.join(" ")}\` with 78, naming both accounts and variables, never the key`, async () => {
      const result = await runCli(args, env(), 30_000);
      const output = result.stdout + result.stderr;
      expect(result.code, output).toBe(78);
      expect(output).toContain('accounts "acme" and "globex" share one API key');
      expect(output).toContain("ACME_API_KEY (acme's api_key_env) and GLOBEX_API_KEY (globex's api_key_env)");
      expect(output).not.toContain(SHARED_KEY);
    });
  }

  it("are refused when both name one variable, set or not", async () => {
    const file = accountsFile(
      "same-variable.yaml",
      `- { name: acme, watch_url: "http://127.0.0.1:9", api_key_env: FLEET_KEY }
- { name: globex, watch_url: "http://127.0.0.1:9", api_key_env: GLOBEX_KEY, search_api_key_env: FLEET_KEY }
`,
    );
    const result = await runCli(["status", "--fleet"], { DATABASE_URL: t.url, REGWATCH_ACCOUNTS_FILE: file });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("both name FLEET_KEY (acme's api_key_env, globex's search_api_key_env)");
  });

  it("leave an account free to use one key for watch and search, and distinct keys pass", async () => {
    expect(
      sharedKeyProblems(
        [
          { name: "acme", apiKeyEnv: "A", searchApiKeyEnv: "A_SEARCH" },
          { name: "globex", apiKeyEnv: "G" },
        ],
        { A: "k1", A_SEARCH: "k1", G: "k2" },
      ),
    ).toEqual([]);
    // Unset and empty variables are not one key.
    expect(
      sharedKeyProblems(
        [
          { name: "a", apiKeyEnv: "A" },
          { name: "b", apiKeyEnv: "B" },
        ],
        { A: "", B: "" },
      ),
    ).toEqual([]);
    // One account's search key that is another's watch key is a shared key too.
    const [problem] = sharedKeyProblems(
      [
        { name: "a", apiKeyEnv: "A", searchApiKeyEnv: "A_SEARCH" },
        { name: "b", apiKeyEnv: "B" },
      ],
      { A: "k1", A_SEARCH: "k2", B: "k2" },
    );
    expect(problem).toContain("A_SEARCH (a's search_api_key_env) and B (b's api_key_env) hold the same key");
  });
});

describe("a key variable is a key", () => {
  it("refuses DATABASE_URL, PG*, POSTGRES_* and REGWATCH_ settings, allows the REGWATCH_ key variables", () => {
    for (const name of [
      "DATABASE_URL",
      "TEST_DATABASE_URL",
      "DATABASE_PASSWORD_FILE",
      "PGPASSWORD",
      "PGHOST",
      "POSTGRES_PASSWORD",
      "REGWATCH_WEBHOOK_SECRET",
      "REGWATCH_SMTP_URL",
      "REGWATCH_CLIENT_ID",
      "REGWATCH_ACCOUNTS_FILE",
    ])
      expect(refusedKeyVariable(name), name).toBeDefined();
    for (const name of ["REGWATCH_API_KEY", "REGWATCH_SEARCH_API_KEY", "ACME_API_KEY", "KEY"])
      expect(refusedKeyVariable(name), name).toBeUndefined();
    expect(looksLikeDatabaseAddress("postgres://u:p@db/x")).toBe(true);
    expect(looksLikeDatabaseAddress("PostgreSQL://db/x")).toBe(true);
    expect(looksLikeDatabaseAddress("sk_live_postgres")).toBe(false);
  });

  it("refuses an entry naming DATABASE_URL or a REGWATCH_ setting with 78, naming the entry and variable", async () => {
    const file = accountsFile(
      "database-url.yaml",
      `- { name: acme, watch_url: "http://127.0.0.1:9", api_key_env: DATABASE_URL }
- { name: globex, watch_url: "http://127.0.0.1:9", api_key_env: GLOBEX_KEY, search_api_key_env: REGWATCH_SMTP_URL }
- { name: initech, watch_url: "http://127.0.0.1:9", api_key_env: PGPASSWORD }
- { name: umbrella, watch_url: "http://127.0.0.1:9", api_key_env: REGWATCH_API_KEY }
`,
    );
    const env = {
      DATABASE_URL: t.url,
      REGWATCH_ACCOUNTS_FILE: file,
      GLOBEX_KEY: "k-globex",
      REGWATCH_API_KEY: "k-umbrella",
    };
    for (const args of [["sync", "--account", "acme"], ["worker"], ["changes", "--account", "umbrella"]]) {
      const result = await runCli(args, env, 30_000);
      expect(result.code).toBe(78);
      const lines = result.stderr.split("\n");
      const line = (entry: string) => lines.find((l) => l.includes(entry)) ?? `(no line for ${entry})`;
      expect(line('entry 1 ("acme"): api_key_env: DATABASE_URL')).toContain("database's address");
      expect(line('entry 2 ("globex"): search_api_key_env: REGWATCH_SMTP_URL')).toContain(
        "regwatch's own settings",
      );
      expect(line('entry 3 ("initech"): api_key_env: PGPASSWORD')).toContain("Postgres client setting");
      expect(result.stderr).not.toContain("umbrella");
      expect(result.stderr).not.toContain(t.url);
    }
  });

  it("refuses a key variable whose value is a postgres:// address, naming it, never its value", async () => {
    const file = accountsFile(
      "postgres-value.yaml",
      `- { name: acme, watch_url: "http://127.0.0.1:9", api_key_env: ACME_API_KEY }\n`,
    );
    const address = "postgres://regwatch:s3cret-db-pass@db.internal:5432/regwatch";
    for (const args of [["changes"], ["sync"], ["worker"]]) {
      const result = await runCli(args, {
        DATABASE_URL: t.url,
        REGWATCH_ACCOUNTS_FILE: file,
        ACME_API_KEY: address,
      });
      expect(result.code).toBe(78);
      expect(result.stderr).toContain(
        'ACME_API_KEY: holds a database address (postgres://...), not an API key; account "acme" names it in api_key_env',
      );
      expect(result.stderr).not.toContain("s3cret-db-pass");
    }
  });
});

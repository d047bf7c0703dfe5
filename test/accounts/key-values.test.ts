/**
 * What a key variable may hold (issue 48, points 3 and 4): one key is one key however it is written
 * (` k` and `k` are one key on the wire, where header values are trimmed, so a value with blanks at
 * an end or control characters is refused), and what looks like a credential (a URL with a user,
 * a libpq keyword string) is never sent as `X-Api-Key`. Both for REGWATCH_API_KEY of a single
 * account and for every key variable of an accounts file: exit 78 naming the variable, never the value.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyAsSent, keyValueProblem, sharedKeyProblems } from "../../src/account-keys.ts";
import { loadConfig } from "../../src/config.ts";
import { ConfigError } from "../../src/errors.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const dir = mkdtempSync(path.join(tmpdir(), "regwatch-key-values-"));
const TWO = path.join(dir, "two.yaml");
writeFileSync(
  TWO,
  `- { name: acme, watch_url: "http://127.0.0.1:9/v2", api_key_env: ACME_API_KEY }
- { name: globex, watch_url: "http://127.0.0.1:9/v2", api_key_env: GLOBEX_API_KEY }
`,
);

const SECRET = "s3cret-db-pass";
const PSYCOPG_URL = `postgresql+psycopg://regwatch:${SECRET}@db.internal:5432/regwatch`;
const MYSQL_URL = `mysql+pymysql://app:${SECRET}@db.internal/app`;
const LIBPQ = `host=db.internal password=${SECRET} dbname=regwatch`;

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

function configProblems(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("the pure checks", () => {
  it("take a key as the registry receives it: trimmed of spaces, tabs and line breaks", () => {
    expect(keyAsSent(" k-shared")).toBe("k-shared");
    expect(keyAsSent("\tk-shared \r\n")).toBe("k-shared");
    expect(keyAsSent("k shared")).toBe("k shared");
    // A no-break space is no HTTP whitespace: it reaches the registry (and is refused below).
    expect(keyAsSent("\u00a0k")).toBe("\u00a0k");
  });

  it("refuse blanks at an end and control characters (C0, DEL, C1)", () => {
    for (const value of [" k-shared", "k-shared ", "\u00a0k-shared", "k-shared\ufeff"])
      expect(keyValueProblem(value), JSON.stringify(value)).toMatch(/^must not begin or end with a blank/);
    for (const value of [
      "\tk-shared",
      "k-shared\n",
      "k\u0000x",
      "k\u007fx",
      "k\u0085x",
      "k\u009fx",
      "k\u0080",
    ])
      expect(keyValueProblem(value), JSON.stringify(value)).toMatch(/^must not contain control characters/);
  });

  it("refuse what reads as credentials: postgres addresses with a driver, URLs with a user, libpq strings", () => {
    expect(keyValueProblem(PSYCOPG_URL)).toBe("holds a database address (postgres://...), not an API key");
    expect(keyValueProblem("postgres://db/x")).toMatch(/database address/);
    for (const value of [
      MYSQL_URL,
      "https://token@registry.example",
      "redis://:pw@cache:6379/0",
      "x+y://u:p@h",
    ])
      expect(keyValueProblem(value), value).toMatch(/^holds a URL with a user name or password/);
    for (const value of [LIBPQ, `password=${SECRET}`, "dbname=x user=u", "sslmode=require  host = db"])
      expect(keyValueProblem(value), value).toMatch(/^holds a database connection string/);
  });

  it("let real keys through, base64 padding, @ and = inside included, and never quote the value", () => {
    for (const value of [
      "k-shared",
      "sk_live_0123456789abcdef",
      "dGhlLWtleQ==",
      "abc+/def=",
      "key@example",
      "hostname=x",
      "a=b",
      "https://registry.example/key",
    ])
      expect(keyValueProblem(value), value).toBeUndefined();
    for (const value of [PSYCOPG_URL, MYSQL_URL, LIBPQ, " k-shared"])
      expect(keyValueProblem(value)).not.toContain(value.trim());
  });

  it("find two accounts holding one key written two ways", () => {
    const accounts = [
      { name: "acme", apiKeyEnv: "A" },
      { name: "globex", apiKeyEnv: "G" },
    ];
    const [problem, ...more] = sharedKeyProblems(accounts, { A: " k-shared", G: "k-shared" });
    expect(more).toEqual([]);
    expect(problem).toContain("A (acme's api_key_env) and G (globex's api_key_env) hold the same key");
    expect(problem).not.toContain("k-shared");
    expect(sharedKeyProblems(accounts, { A: "k-shared\t", G: "\r\nk-shared" })).toHaveLength(1);
    expect(sharedKeyProblems(accounts, { A: "k-shared", G: "k-shared2" })).toEqual([]);
  });

  it("apply to REGWATCH_API_KEY and REGWATCH_SEARCH_API_KEY of a single account, never trimmed quietly", () => {
    expect(configProblems({ REGWATCH_API_KEY: " k-single" })).toEqual([
      expect.stringMatching(/^REGWATCH_API_KEY: must not begin or end with a blank/),
    ]);
    const problems = configProblems({ REGWATCH_API_KEY: PSYCOPG_URL, REGWATCH_SEARCH_API_KEY: LIBPQ });
    expect(problems).toEqual([
      "REGWATCH_API_KEY: holds a database address (postgres://...), not an API key",
      "REGWATCH_SEARCH_API_KEY: holds a database connection string (host=... password=...), not an API key",
    ]);
    expect(problems.join("\n")).not.toContain(SECRET);
    expect(loadConfig({ REGWATCH_API_KEY: "k-single" }).apiKey).toBe("k-single");
  });
});

describe("the built command", () => {
  const fleet = (keys: Record<string, string>) => ({
    DATABASE_URL: t.url,
    REGWATCH_ACCOUNTS_FILE: TWO,
    ...keys,
  });

  for (const args of [["status", "--fleet"], ["sync", "--account", "globex"], ["worker"]]) {
    it(`refuses \` k-shared\` beside \`k-shared\` in \`${args.join(" ")}\`: 78, both variables named, no key`, async () => {
      const result = await runCli(
        args,
        fleet({ ACME_API_KEY: " k-shared", GLOBEX_API_KEY: "k-shared" }),
        30_000,
      );
      const output = result.stdout + result.stderr;
      expect(result.code, output).toBe(78);
      expect(output).toContain('accounts "acme" and "globex" share one API key');
      expect(output).toContain("ACME_API_KEY (acme's api_key_env) and GLOBEX_API_KEY (globex's api_key_env)");
      expect(output).toMatch(
        /ACME_API_KEY: must not begin or end with a blank .*; account "acme" names it in api_key_env/,
      );
      expect(output).not.toContain("k-shared");
    });
  }

  it("refuses an account's key holding a credential URL, a libpq string or a C1 control: 78, named, no value", async () => {
    for (const args of [["changes", "--account", "acme"], ["sync", "--account", "acme"], ["worker"]]) {
      const result = await runCli(args, fleet({ ACME_API_KEY: MYSQL_URL, GLOBEX_API_KEY: LIBPQ }), 30_000);
      const output = result.stdout + result.stderr;
      expect(result.code, output).toBe(78);
      expect(result.stderr).toContain(
        'ACME_API_KEY: holds a URL with a user name or password (scheme://user:password@host), not an API key; account "acme" names it in api_key_env',
      );
      expect(result.stderr).toContain(
        'GLOBEX_API_KEY: holds a database connection string (host=... password=...), not an API key; account "globex" names it in api_key_env',
      );
      expect(output).not.toContain(SECRET);
    }
    const c1 = await runCli(
      ["sync", "--account", "acme"],
      fleet({ ACME_API_KEY: "k-acme\u0085", GLOBEX_API_KEY: "k-globex" }),
    );
    expect(c1.code).toBe(78);
    expect(c1.stderr).toContain("ACME_API_KEY: must not contain control characters");
    expect(c1.stdout + c1.stderr).not.toContain("k-acme");
  });

  it("refuses REGWATCH_API_KEY of a single account written with a blank or holding credentials", async () => {
    const single = (key: string) => ({
      DATABASE_URL: t.url,
      REGWATCH_WATCH_URL: "http://127.0.0.1:9/v2",
      REGWATCH_API_KEY: key,
    });
    for (const [key, message, secret] of [
      [" k-single", "REGWATCH_API_KEY: must not begin or end with a blank", "k-single"],
      [PSYCOPG_URL, "REGWATCH_API_KEY: holds a database address (postgres://...), not an API key", SECRET],
      [LIBPQ, "REGWATCH_API_KEY: holds a database connection string", SECRET],
    ] as const) {
      const result = await runCli(["sync"], single(key), 30_000);
      const output = result.stdout + result.stderr;
      expect(result.code, output).toBe(78);
      expect(result.stderr).toContain(message);
      expect(output).not.toContain(secret);
    }
  });
});

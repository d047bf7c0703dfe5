/**
 * The accounts file and `--account` as a user meets them: a bad file exits 78 naming each bad
 * entry, a missing or unknown account exits 64, and every command of one account's data takes
 * the option.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pLimit from "p-limit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const dir = mkdtempSync(path.join(tmpdir(), "regwatch-accounts-cli-"));
function accountsFile(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

const TWO = accountsFile(
  "two.yaml",
  `accounts:
  - { name: a, watch_url: "http://127.0.0.1:9/v2", api_key_env: A_KEY }
  - { name: b, watch_url: "http://127.0.0.1:9/v2", api_key_env: B_KEY }
`,
);
const ONE = accountsFile(
  "one.json",
  JSON.stringify([{ name: "a", watch_url: "http://127.0.0.1:9", api_key_env: "A_KEY" }]),
);

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

const keys = { A_KEY: "key-of-account-a", B_KEY: "key-of-account-b" };

describe("a bad accounts file", () => {
  it("exits 78 and names each bad entry and field", async () => {
    const file = accountsFile(
      "bad.yaml",
      `- { name: 9lives, watch_url: "http://x.example", api_key_env: K }
- { name: nourl, api_key_env: K }
- { name: fast, watch_url: "http://x.example", api_key_env: K, rate_limit: 31 }
- { name: odd, watch_url: "http://x.example", api_key_env: K, region: eu }
- { name: leaky, watch_url: "http://x.example", api_key_env: K, api_key: very-secret-key }
- { name: cron, watch_url: "http://x.example", api_key_env: K, schedule: "61 * * * *" }
- { name: zone, watch_url: "http://x.example", api_key_env: K, timezone: Europe/Atlantis }
- { name: nourl, watch_url: "http://x.example", api_key_env: K }
`,
    );
    const result = await runCli(["changes"], { DATABASE_URL: t.url, REGWATCH_ACCOUNTS_FILE: file });
    expect(result.code).toBe(78);
    const lines = result.stderr.split("\n");
    const line = (entry: string, field: string) =>
      lines.find((l) => l.includes(`${entry}: ${field}`)) ?? `(no line for ${entry} ${field})`;
    expect(line('entry 1 ("9lives")', "name:")).toContain("must be a lower-case letter");
    expect(line('entry 2 ("nourl")', "watch_url:")).toContain("is required");
    expect(line('entry 3 ("fast")', "rate_limit:")).toContain("must be at most 30");
    expect(line('entry 4 ("odd")', "region:")).toContain("unknown field");
    expect(line('entry 5 ("leaky")', "api_key:")).toContain("keys never go in the file");
    expect(line('entry 6 ("cron")', "schedule:")).toContain("is not a valid cron expression");
    expect(line('entry 7 ("zone")', "timezone:")).toContain("is not a known IANA time zone");
    expect(line('entry 8 ("nourl")', "name:")).toContain("already used by entry 2");
    expect(result.stderr).not.toContain("very-secret-key");
  });

  it("exits 78 when the file is not a list, or is missing", async () => {
    const notList = accountsFile("scalar.yaml", "accounts: a, b\n");
    const result = await runCli(["changes"], { DATABASE_URL: t.url, REGWATCH_ACCOUNTS_FILE: notList });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("must be a list of accounts");
    const missing = await runCli(["changes"], {
      DATABASE_URL: t.url,
      REGWATCH_ACCOUNTS_FILE: path.join(dir, "nowhere.yaml"),
    });
    expect(missing.code).toBe(78);
    expect(missing.stderr).toContain("nowhere.yaml (no such file)");
  });

  it("reads an account's tables without its key, and names the key variable when the registry is called", async () => {
    const env = { DATABASE_URL: t.url, REGWATCH_ACCOUNTS_FILE: TWO, A_KEY: keys.A_KEY };
    const read = await runCli(["changes", "--account", "b"], env);
    expect(read.stderr).toBe("");
    expect(read.code).toBe(0);
    const call = await runCli(["sync", "--account", "b"], env);
    expect(call.code).toBe(78);
    expect(call.stderr).toContain('B_KEY: must hold the API key of account "b"');
    expect(call.stderr).not.toContain("REGWATCH_API_KEY");
  });
});

describe("--account", () => {
  it("is required with two accounts and must name one of them (64)", async () => {
    const env = { DATABASE_URL: t.url, REGWATCH_ACCOUNTS_FILE: TWO, ...keys };
    const none = await runCli(["changes"], env);
    expect(none.code).toBe(64);
    expect(none.stderr).toContain("--account NAME is required: 2 accounts (a, b)");
    const unknown = await runCli(["changes", "--account", "c"], env);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toContain('no account "c" in the accounts file (accounts: a, b)');
    const chosen = await runCli(["changes", "--account", "b"], env);
    expect(chosen.stderr).toBe("");
    expect(chosen.code).toBe(0);
  });

  it("may be left out with one account, and is refused without an accounts file (64)", async () => {
    const one = await runCli(["changes"], {
      DATABASE_URL: t.url,
      REGWATCH_ACCOUNTS_FILE: ONE,
      A_KEY: keys.A_KEY,
    });
    expect(one.stderr).toBe("");
    expect(one.code).toBe(0);
    expect(one.stdout).toContain("No changes since");
    const noFile = await runCli(["changes", "--account", "a"], { DATABASE_URL: t.url });
    expect(noFile.code).toBe(64);
    expect(noFile.stderr).toContain("no accounts file: REGWATCH_ACCOUNTS_FILE is not set");
  });

  it("is taken by every command of one account's data", async () => {
    const commands = [
      ["sync"],
      ["backfill", "--from", "2026-01-01"],
      ["reconcile"],
      ["watch", "add", "--list", "l", "--tax-id", "12345676"],
      ["watch", "remove", "--list", "l", "--tax-id", "12345676"],
      ["watch", "list"],
      ["watch", "import", "f.csv", "--list", "l"],
      ["watch", "drop-list", "l"],
      ["changes"],
      ["status"],
      ["doctor"],
      ["coverage", "accept", "l", "2026-01-01", "2026-01-02", "--reason", "r"],
      ["lookup", "name", "acme"],
      ["reparse"],
      ["grant-reader", "some_role"],
      ["alerts", "list"],
      ["alerts", "ack", "1", "--by", "me"],
      ["alerts", "resolve", "1", "--by", "me"],
      ["alerts", "snooze", "1", "--until", "2099-01-01", "--by", "me"],
      ["alerts", "show", "1"],
      ["alerts", "deliver"],
      ["alerts", "test", "r"],
      ["alerts", "rule", "add", "r", "--channel", "notify", "--target", "x"],
      ["alerts", "rule", "edit", "r"],
      ["alerts", "rule", "pause", "r"],
      ["alerts", "rule", "resume", "r"],
      ["alerts", "rule", "remove", "r"],
      ["alerts", "rule", "history", "r"],
      ["alerts", "rule", "list"],
      ["payments", "check", "f.csv"],
      ["payments", "verify", "11773016-11111018", "--tax-id", "12345676", "--by", "me"],
      ["payments", "verifications"],
    ];
    const env = { DATABASE_URL: t.url, REGWATCH_ACCOUNTS_FILE: TWO, ...keys };
    // Four processes at a time: 33 started at once on a busy 2-core machine outran the timeout.
    const limit = pLimit(4);
    const results = await Promise.all(
      commands.map((args) =>
        limit(async () => ({ args, result: await runCli([...args, "--account", "zz"], env) })),
      ),
    );
    const refused = results
      .filter(({ result }) => result.code !== 64 || !result.stderr.includes('no account "zz"'))
      .map(({ args, result }) => `${args.join(" ")}: ${result.code} ${result.stderr.trim()}`);
    expect(refused).toEqual([]);
  }, 240_000);
});

/**
 * `regwatch users` with an accounts file: accounts given at `add`, by `grant`, taken by `revoke`,
 * shown by `list`; names the file lacks refused with 64 naming the known ones; `--account`
 * without a file refused with 64. And `regwatch web` in front of the accounts, migrating an
 * account's schema the first time it is shown.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountsOfUser } from "../../src/console/access.ts";
import { BIN, type CliResult, runCli, runCliWithInput } from "../helpers/cli.ts";
import { getPage, signIn, startWebProcess } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { writeAccountsFile } from "./accounts-fixture.ts";

const PASSWORD = "a long enough pass phrase";

let t: TestDatabase;
let accountsFile: string;

beforeAll(async () => {
  t = await createTestDatabase();
  accountsFile = writeAccountsFile(["a", "b"]);
});
afterAll(async () => {
  await t?.drop();
});

function users(args: string[], options: { input?: string; fleet?: boolean } = {}): Promise<CliResult> {
  const env = {
    DATABASE_URL: t.url,
    ...(options.fleet === false ? {} : { REGWATCH_ACCOUNTS_FILE: accountsFile }),
  };
  return options.input === undefined
    ? runCli(["users", ...args], env)
    : runCliWithInput(["users", ...args], env, options.input);
}

const add = (name: string, ...more: string[]) =>
  users(["add", name, "--role", "reviewer", "--password-stdin", ...more], { input: `${PASSWORD}\n` });

describe("regwatch users with an accounts file", () => {
  it("adds a user with accounts, grants and revokes more, and lists them", async () => {
    const added = await add("ann", "--account", "a");
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("added ann (reviewer) with account a");
    expect(await accountsOfUser(t.db.sql, "ann")).toEqual(["a"]);

    const granted = await users(["grant", "ann", "--account", "a", "b"]);
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain("ann may see a, b (had a already)");
    expect(await accountsOfUser(t.db.sql, "ann")).toEqual(["a", "b"]);

    const listed = await users(["list"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/NAME\s+ROLE\s+LANGUAGE\s+ADDED\s+CHANGED\s+SESSIONS\s+ACCOUNTS/);
    expect(listed.stdout).toMatch(/ann\s+reviewer\s+.*\s+0\s+a,b/);

    const revoked = await users(["revoke", "ann", "--account", "b"]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain("ann no longer sees b");
    expect(await accountsOfUser(t.db.sql, "ann")).toEqual(["a"]);
  });

  it("refuses an account the file lacks with 64, naming the accounts, and changes nothing", async () => {
    const unknownAdd = await add("bea", "--account", "a", "--account", "zzz");
    expect(unknownAdd.code).toBe(64);
    expect(unknownAdd.stderr).toContain('no account "zzz" in the accounts file (accounts: a, b)');
    expect((await users(["list"])).stdout).not.toContain("bea");

    const unknownGrant = await users(["grant", "ann", "--account", "zzz"]);
    expect(unknownGrant.code).toBe(64);
    expect(unknownGrant.stderr).toContain("(accounts: a, b)");
    const unknownRevoke = await users(["revoke", "ann", "--account", "zzz"]);
    expect(unknownRevoke.code).toBe(64);
    expect(await accountsOfUser(t.db.sql, "ann")).toEqual(["a"]);

    const nobody = await users(["grant", "nobody", "--account", "a"]);
    expect(nobody.code).toBe(64);
    expect(nobody.stderr).toContain('no console user "nobody"');
  });

  it("refuses --account without an accounts file (64) and lists no accounts column", async () => {
    const withFile = await add("cid", "--account", "a");
    expect(withFile.code).toBe(0);
    const plain = await users(["add", "dan", "--role", "reader", "--password-stdin", "--account", "a"], {
      input: `${PASSWORD}\n`,
      fleet: false,
    });
    expect(plain.code).toBe(64);
    expect(plain.stderr).toContain("no accounts file: REGWATCH_ACCOUNTS_FILE is not set");
    expect((await users(["grant", "cid", "--account", "a"], { fleet: false })).code).toBe(64);
    const listed = await users(["list"], { fleet: false });
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain("ACCOUNTS");
  });
});

describe("regwatch web with an accounts file", () => {
  it("serves the account a user was given, migrating its schema on first use", async () => {
    await add("eve", "--account", "b");
    const web = await startWebProcess(BIN, { DATABASE_URL: t.url, REGWATCH_ACCOUNTS_FILE: accountsFile });
    try {
      const eve = await signIn(web.url, "eve", PASSWORD);
      const inbox = await getPage(`${web.url}/`, eve);
      expect(inbox.status).toBe(200);
      expect(await inbox.text()).toContain(`<span class="account">Account b</span>`);
      const [schema] = await t.db
        .sql`select 1 from pg_tables where schemaname = 'regwatch_b' and tablename = 'alerts'`;
      expect(schema).toBeDefined();
    } finally {
      expect(await web.stop()).toBe(0);
    }
  });

  it("exits 78 naming the file when the accounts file cannot be read", async () => {
    const result = await runCli(["web", "--port", "0"], {
      DATABASE_URL: t.url,
      REGWATCH_ACCOUNTS_FILE: "/nonexistent/accounts.yaml",
    });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("/nonexistent/accounts.yaml");
  });
});

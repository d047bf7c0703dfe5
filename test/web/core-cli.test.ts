/**
 * `regwatch users` and `regwatch web` as subprocesses: the password comes from standard input,
 * is checked, stored only as a scrypt hash and never printed; passwd ends the user's sessions;
 * `web` serves the console until SIGTERM.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../../src/web/passwords.ts";
import { BIN, type CliResult, runCli, runCliWithInput } from "../helpers/cli.ts";
import { getPage, signIn, startTestConsole, startWebProcess, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const PASSWORD = "a long enough pass phrase";

let t: TestDatabase;
let web: TestConsole;

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db);
});
afterAll(async () => {
  await web?.close();
  await t?.drop();
});

function users(args: string[], input: string | null, env: Record<string, string> = {}): Promise<CliResult> {
  const all = { DATABASE_URL: t.url, REGWATCH_LOG_LEVEL: "debug", ...env };
  return input === null ? runCli(["users", ...args], all) : runCliWithInput(["users", ...args], all, input);
}

const stored = async (name: string) =>
  (
    await t.db.sql<{ role: string; hash: string }[]>`
    select role, password_hash as hash from regwatch.console_users where name = ${name}`
  )[0];

describe("regwatch users", () => {
  it("adds a user with the password from stdin, storing only a scrypt hash and printing no password", async () => {
    const result = await users(["add", "anna", "--role", "admin", "--password-stdin"], `${PASSWORD}\n`);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("added anna (admin)");
    expect(result.stdout + result.stderr).not.toContain(PASSWORD);
    const row = await stored("anna");
    expect(row?.role).toBe("admin");
    expect(row?.hash).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(row?.hash).not.toContain(PASSWORD);
    expect(await verifyPassword(PASSWORD, row!.hash)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}x`, row!.hash)).toBe(false);
    const dump = await t.db.sql`select * from regwatch.console_users`;
    expect(JSON.stringify(dump)).not.toContain(PASSWORD);
  });

  it("refuses a password shorter than 12 characters, an empty stdin, an unknown role and a taken name with 64", async () => {
    const short = await users(["add", "bela", "--role", "reader", "--password-stdin"], "short pass\n");
    expect(short.code).toBe(64);
    expect(short.stderr).toContain("the password must be at least 12 characters long");
    expect(short.stderr).not.toContain("short pass");
    const empty = await users(["add", "bela", "--role", "reader", "--password-stdin"], "");
    expect(empty.code).toBe(64);
    expect(empty.stderr).toContain("no password on standard input");
    const role = await users(["add", "bela", "--role", "boss", "--password-stdin"], `${PASSWORD}\n`);
    expect(role.code).toBe(64);
    expect(role.stderr).toMatch(/reader, reviewer, admin/);
    expect(await stored("bela")).toBeUndefined();
    const taken = await users(["add", "anna", "--role", "reader", "--password-stdin"], `${PASSWORD}\n`);
    expect(taken.code).toBe(64);
    expect(taken.stderr).toContain('user "anna" exists already');
    expect((await stored("anna"))?.role).toBe("admin");
  });

  it("lists users with their role", async () => {
    const result = await users(["list"], null);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^NAME\s+ROLE/);
    expect(result.stdout).toMatch(/anna\s+admin/);
  });

  it("sets a new password with passwd and ends the user's sessions", async () => {
    const session = await signIn(web.url, "anna", PASSWORD);
    expect((await getPage(`${web.url}/`, session)).status).toBe(200);
    const result = await users(["passwd", "anna", "--password-stdin"], "another long pass phrase\r\n");
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain("another long pass phrase");
    expect((await getPage(`${web.url}/`, session)).status).toBe(303);
    await expect(signIn(web.url, "anna", PASSWORD)).rejects.toThrow(/answered 401/);
    await signIn(web.url, "anna", "another long pass phrase");
    expect((await users(["passwd", "nobody", "--password-stdin"], `${PASSWORD}\n`)).code).toBe(64);
  });

  it("refuses to remove the last admin with 64, changing nothing, as the console does", async () => {
    const session = await signIn(web.url, "anna", "another long pass phrase");
    const result = await users(["remove", "anna"], null);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain("nothing was changed: anna is the last admin, and the console needs one");
    expect(result.stdout).toBe("");
    expect((await stored("anna"))?.role).toBe("admin");
    expect((await getPage(`${web.url}/`, session)).status).toBe(200);
  });

  it("removes a user: their session ends and they cannot sign in", async () => {
    const other = await users(["add", "carl", "--role", "admin", "--password-stdin"], `${PASSWORD}\n`);
    expect(other.code).toBe(0);
    const session = await signIn(web.url, "anna", "another long pass phrase");
    const result = await users(["remove", "anna"], null);
    expect(result.code).toBe(0);
    expect((await getPage(`${web.url}/`, session)).status).toBe(303);
    expect(await stored("anna")).toBeUndefined();
    expect((await users(["remove", "anna"], null)).code).toBe(64);
    // carl is now the only admin: kept; a reader beside him goes.
    expect((await users(["remove", "carl"], null)).code).toBe(64);
    expect((await stored("carl"))?.role).toBe("admin");
    expect((await users(["add", "dora", "--role", "reader", "--password-stdin"], `${PASSWORD}\n`)).code).toBe(
      0,
    );
    expect((await users(["remove", "dora"], null)).code).toBe(0);
    expect(await stored("dora")).toBeUndefined();
  });
});

describe("regwatch web", () => {
  it("serves the console on the given port until SIGTERM", async () => {
    const own = await startWebProcess(BIN, { DATABASE_URL: t.url });
    const url = own.url;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/`, { redirect: "manual" })).status).toBe(303);
    expect(await own.stop()).toBe(0);
  });
});

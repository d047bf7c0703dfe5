/**
 * Issue 36: `users add NAME --role R` without --password-stdin asks twice on a terminal, echoing
 * nothing; without a terminal it says how to give the password. The terminal is a real
 * pseudo-terminal (util-linux `script`), the typing comes through it.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childBaseEnv } from "../helpers/child-env.ts";
import { BIN, runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(async () => {
  await test.drop();
});

/** Runs `regwatch ARGS` on a pseudo-terminal, typing `lines` once each prompt has appeared. */
function onTerminal(args: string[], lines: string[]): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const child = spawn("script", ["-qec", command, "/dev/null"], {
    env: {
      ...childBaseEnv(),
      DATABASE_URL: test.url,
      REGWATCH_LOG_LEVEL: "warn",
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  let typed = 0;
  const prompts = () => (output.match(/password[^\n]*: /g) ?? []).length;
  const typeWhenAsked = () => {
    while (typed < lines.length && prompts() > typed) child.stdin.write(`${lines[typed++]}\r`);
  };
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    typeWhenAsked();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, output })));
}

describe("users add without --password-stdin", () => {
  it("asks twice on a terminal without echoing, and adds the user", async () => {
    const secret = "correct horse battery";
    const result = await onTerminal(["users", "add", "anna", "--role", "admin"], [secret, secret]);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain("password (at least 12 characters, not shown): ");
    expect(result.output).toContain("the same password again: ");
    expect(result.output).not.toContain(secret);
    expect(result.output).toContain("added anna (admin)");
    const [row] = await test.db.sql<
      { n: number }[]
    >`select count(*)::int as n from ${test.db.sql.t.console_users} where name = 'anna'`;
    expect(row!.n).toBe(1);
  });

  it("refuses two passwords that differ and adds no one", async () => {
    const result = await onTerminal(
      ["users", "add", "bela", "--role", "reader"],
      ["first long password", "second long password"],
    );
    expect(result.code).toBe(64);
    expect(result.output).toContain("the two passwords differ; nothing was changed");
    const [row] = await test.db.sql<
      { n: number }[]
    >`select count(*)::int as n from ${test.db.sql.t.console_users} where name = 'bela'`;
    expect(row!.n).toBe(0);
  });

  it("without a terminal says how to give the password", async () => {
    const result = await runCli(["users", "add", "cecil", "--role", "reader"], { DATABASE_URL: test.url });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain("no terminal to ask for the password");
    expect(result.stderr).toContain("--password-stdin");
  });
});

/**
 * `users add --password-stdin` reads at most the longest allowed password line and one byte:
 * fed an endless stream, it refuses with 64 having taken only a few kilobytes of it (counted as
 * the bytes the pipe accepted before the command stopped reading).
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childBaseEnv } from "../helpers/child-env.ts";
import { BIN } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

describe("users add --password-stdin", () => {
  it("refuses a 50 MB line without reading it all", async () => {
    const child = spawn(
      process.execPath,
      [BIN, "users", "add", "huge", "--role", "reader", "--password-stdin"],
      {
        env: {
          ...childBaseEnv(),
          DATABASE_URL: t.url,
          REGWATCH_LOG_LEVEL: "warn",
        },
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    child.stdin.on("error", () => {});
    let taken = 0;
    const chunk = Buffer.alloc(64 * 1024, "p");
    for (let sent = 0; sent < 50 * 1024 * 1024; sent += chunk.length) {
      const more = child.stdin.write(chunk, (error) => {
        if (!error) taken += chunk.length;
      });
      if (!more) {
        const stopped = await new Promise<boolean>((resolve) => {
          child.stdin.once("drain", () => resolve(false));
          child.stdin.once("close", () => resolve(true));
          child.stdin.once("error", () => resolve(true));
        });
        if (stopped) break;
      }
    }
    child.stdin.destroy();
    expect(await exited).toBe(64);
    expect(stderr).toContain("the password on standard input is longer than 1024 characters allow");
    // The pipe's own buffer and what the command read: nowhere near the 50 MB sent.
    expect(taken).toBeLessThan(1024 * 1024);
    const rows = await t.db.sql`select 1 from regwatch.console_users where name = 'huge'`;
    expect(rows).toHaveLength(0);
  });

  it("still takes a password of the longest allowed length", async () => {
    const password = "é".repeat(1024);
    const child = spawn(
      process.execPath,
      [BIN, "users", "add", "long", "--role", "reader", "--password-stdin"],
      {
        env: {
          ...childBaseEnv(),
          DATABASE_URL: t.url,
          REGWATCH_LOG_LEVEL: "warn",
        },
        stdio: ["pipe", "ignore", "pipe"],
      },
    );
    child.stdin.end(`${password}\r\n`);
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(code).toBe(0);
  });
});

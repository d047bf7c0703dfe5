/**
 * Issue 14: `regwatch db start` leaves the embedded Postgres running (migrated) for psql or a BI
 * tool after the command exits, other commands attach to it, and `regwatch db stop` stops it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "regwatch-db-start-"));
});
afterAll(async () => {
  // Stops the server if a failed assertion left it running.
  await runCli(["db", "stop"], { REGWATCH_DATA_DIR: dir }, 120_000);
  await rm(dir, { recursive: true, force: true });
});

describe("regwatch db start / stop", () => {
  it("keeps the embedded server up between commands until db stop", async () => {
    const env = { REGWATCH_DATA_DIR: dir };
    const started = await runCli(["db", "start"], env, 180_000);
    expect(started.stderr).toBe("");
    expect(started.code).toBe(0);
    expect(started.stdout).toMatch(/^started: postgres:\/\/[^:]+:\*\*\*\*@/);

    const url = (await runCli(["db", "url", "--show-password"], env)).stdout.trim();
    expect(url).not.toContain("****");
    // Another tool reaches it after every regwatch process has exited; the schema is migrated.
    const sql = postgres(url, { max: 1, onnotice: () => {}, connection: { search_path: "regwatch" } });
    try {
      const [row] = await sql`select count(*)::int as n from regwatch.runs`;
      expect(row).toEqual({ n: 0 });
    } finally {
      await sql.end();
    }
    // A command attaches to it and leaves it running.
    expect((await runCli(["status", "--json"], env, 120_000)).code).toBe(0);
    expect((await runCli(["db", "start"], env, 120_000)).stdout).toMatch(/^already running/);

    const stopped = await runCli(["db", "stop"], env, 120_000);
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toBe("stopped\n");
    const after = await runCli(["db", "url"], env);
    expect(after.stderr).toContain("the embedded server is not running");
  }, 300_000);
});

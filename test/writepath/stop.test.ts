import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HostileRegistry, hostileEnv, startHostileRegistry } from "../helpers/hostile-registry.ts";

describe("a stop while a request hangs", () => {
  let registry: HostileRegistry;
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    registry = await startHostileRegistry({
      lists: [{ list_key: "wl_hang", list_name: "hang", created_at: "2024-03-01" }],
      // Headers never come: only a stop can end this run before the (long) request timeout.
      changes: () => ({ hang: true }),
    });
  });
  afterAll(async () => {
    await t?.drop();
    await registry?.close();
  });

  it("SIGTERM ends the run at once, recorded partial, exit 3", async () => {
    const child = spawn(process.execPath, [BIN, "sync"], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        REGWATCH_LOG_LEVEL: "warn",
        ...hostileEnv(registry, { REGWATCH_REQUEST_TIMEOUT_MS: "600000" }),
        DATABASE_URL: t.url,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c;
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr += c;
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    while (registry.asked.length === 0) await new Promise((r) => setTimeout(r, 50));
    const stopAt = Date.now();
    child.kill("SIGTERM");
    const code = await exited;
    const stopMs = Date.now() - stopAt;
    console.log(`stopped ${stopMs} ms after SIGTERM`);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(code).toBe(3);
    expect(stdout).toMatch(/partial \(stopped on request\)/);
    const [run] = await t.db
      .sql`select status from regwatch.runs where kind = 'sync' order by id desc limit 1`;
    expect(run!.status).toBe("partial");
  });
});

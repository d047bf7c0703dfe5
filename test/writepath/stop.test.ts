/**
 * `sync` and `backfill` as processes, stopped by SIGTERM while a request hangs: the stop cuts the
 * request, the run is recorded partial, and the process exits 3 (docs/contracts.md).
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childBaseEnv } from "../helpers/child-env.ts";
import { BIN } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HostileRegistry, hostileEnv, startHostileRegistry } from "../helpers/hostile-registry.ts";
import { waitUntil } from "../helpers/wait.ts";

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

  for (const [kind, args] of [
    ["sync", ["sync"]],
    ["backfill", ["backfill", "--from", "2024-03-01", "--to", "2024-03-20"]],
  ] as const) {
    it(`SIGTERM ends a ${kind} at once, recorded partial, exit 3`, async () => {
      const askedBefore = registry.asked.length;
      const child = spawn(process.execPath, [BIN, ...args], {
        env: {
          ...childBaseEnv(),
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
      // A changes request has reached the registry and hangs there.
      await waitUntil(() => registry.asked.length > askedBefore, {
        what: "a changes request",
        process: child,
      });
      child.kill("SIGTERM");
      const code = await exited;
      expect(stderr).not.toMatch(/\n\s+at /);
      expect(stderr).toMatch(/SIGTERM received/);
      expect(code).toBe(3);
      expect(stdout).toMatch(new RegExp(`^${kind} run \\d+: partial \\(stopped on request\\)`, "m"));
      const [run] = await t.db.sql`
        select status, stats from regwatch.runs where kind = ${kind} order by id desc limit 1`;
      expect(run!.status).toBe("partial");
      expect(run!.stats.stopped).toBe(true);
    }, 180_000);
  }
});

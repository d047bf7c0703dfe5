/**
 * `--wait SECONDS`: while another process holds the run lock, `backfill` exits 75 at once without
 * it, gives up with 75 once its wait is over, and runs as soon as the lock is free within it.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acquireRunLock } from "../../src/run/lock.ts";
import { childBaseEnv } from "../helpers/child-env.ts";
import { BIN, runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  changesAnswer,
  type HostileRegistry,
  hostileEnv,
  startHostileRegistry,
} from "../helpers/hostile-registry.ts";
import { waitUntil } from "../helpers/wait.ts";

describe("backfill --wait", () => {
  let registry: HostileRegistry;
  let t: TestDatabase;
  let env: Record<string, string>;
  const backfill = ["backfill", "--from", "2024-03-01", "--to", "2024-03-14"];
  beforeAll(async () => {
    t = await createTestDatabase();
    registry = await startHostileRegistry({
      lists: [{ list_key: "wl_wait", list_name: "wait", created_at: "2024-03-01" }],
      changes: (q) => changesAnswer(q.from, q.to, []),
    });
    env = { ...hostileEnv(registry), DATABASE_URL: t.url };
  });
  afterAll(async () => {
    await t?.drop();
    await registry?.close();
  });

  it("exits 75 without --wait, and after its wait when the lock stays held; nothing is asked", async () => {
    const lock = await acquireRunLock(t.db.sql);
    try {
      const now = await runCli(backfill, env, 120_000);
      expect(now.code).toBe(75);
      expect(now.stderr).toMatch(/holds the run lock; try again later or pass --wait SECONDS/);
      const later = await runCli([...backfill, "--wait", "1"], env, 120_000);
      expect(later.code).toBe(75);
    } finally {
      await lock.release();
    }
    expect(registry.asked).toEqual([]);
    const [runs] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.runs`;
    expect(runs!.n).toBe(0);
  }, 180_000);

  it("runs once the lock is released within the wait", async () => {
    const lock = await acquireRunLock(t.db.sql);
    let released = false;
    try {
      const child = spawn(process.execPath, [BIN, ...backfill, "--wait", "600"], {
        env: { ...childBaseEnv(), REGWATCH_LOG_LEVEL: "info", ...env },
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
      // The process is up and waiting: it says so once, naming who holds the lock (this test's process).
      await waitUntil(() => /waiting up to 600 s for the run lock, which pid \d+ on \S+ holds/.test(stderr), {
        what: "backfill saying it waits for the run lock",
        process: child,
      });
      expect(registry.asked).toEqual([]);
      await lock.release();
      released = true;
      expect(await exited).toBe(0);
      expect(stdout).toMatch(/^backfill run \d+: ok/m);
      expect(registry.asked.map((a) => `${a.from}..${a.to}`)).toEqual([
        "2024-03-01..2024-03-07",
        "2024-03-08..2024-03-14",
      ]);
    } finally {
      if (!released) await lock.release();
    }
  }, 180_000);
});

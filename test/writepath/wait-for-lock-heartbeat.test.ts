/**
 * Issue 48, point 12: a live lease is never taken over. A holder is judged by its lease's expiry
 * on the database's clock only: one in another container with the same host name, whose pid here
 * is no process at all, keeps the lock while its lease runs. `sync` and `backfill` exit 75 (or
 * wait with `--wait`) until the lease ends, then take it and mark the run it left failed.
 */
import { spawn, spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

/** A pid no process of this machine has: a child's, once it has ended. */
function endedPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(child.stdout.toString());
}

describe("a lease held from another container with the same host name", () => {
  let registry: HostileRegistry;
  let t: TestDatabase;
  let env: Record<string, string>;
  const backfill = ["backfill", "--from", "2024-03-01", "--to", "2024-03-07"];
  beforeAll(async () => {
    t = await createTestDatabase();
    registry = await startHostileRegistry({
      lists: [{ list_key: "wl_ns", list_name: "namespace", created_at: "2024-03-01" }],
      changes: (q) => changesAnswer(q.from, q.to, []),
    });
    env = { ...hostileEnv(registry), DATABASE_URL: t.url };
  });
  afterAll(async () => {
    await t?.drop();
    await registry?.close();
  });

  /** Who holds the lease now. */
  const holder = async () => {
    const [row] = await t.db.sql<{ holder: string }[]>`select holder from regwatch.run_lease`;
    return row?.holder;
  };

  it("is kept while its heartbeat runs, and taken once it has ended", async () => {
    const pid = endedPid();
    // Renewed a moment ago by a process of "this" host, as the other container sees it.
    await t.db.sql`
      insert into regwatch.run_lease (holder, pid, host, renewed_at, expires_at)
      values ('other-container', ${pid}, ${hostname()}, clock_timestamp(), clock_timestamp() + interval '1 hour')`;
    const [run] = await t.db.sql<{ id: number }[]>`
      insert into regwatch.runs (kind, trigger, status, pid, host)
      values ('sync', 'cli', 'running', ${pid}, ${hostname()}) returning id`;

    for (const command of [["sync"], backfill]) {
      const refused = await runCli(command, env, 120_000);
      expect(refused.code).toBe(75);
      expect(refused.stderr).toMatch(new RegExp(`pid ${pid} on \\S+ holds the run lock`));
      expect(await holder()).toBe("other-container");
    }

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
    try {
      // It has tried once and found the lease live: it waits, and the lease is still the other's.
      await waitUntil(() => /waiting up to 600 s for the run lock/.test(stderr), {
        what: "backfill saying it waits for the run lock",
        process: child,
      });
      expect(await holder()).toBe("other-container");
      expect(registry.asked).toEqual([]);

      // The other container stops renewing: its lease ends on the database's clock.
      await t.db.sql`
        update regwatch.run_lease set expires_at = clock_timestamp() - interval '1 second'
        where holder = 'other-container'`;
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill();
    }
    expect(stdout).toMatch(/^backfill run \d+: ok/m);
    expect(registry.asked.map((a) => `${a.from}..${a.to}`)).toEqual(["2024-03-01..2024-03-07"]);
    const [left] = await t.db.sql<
      { status: string }[]
    >`select status from regwatch.runs where id = ${run!.id}`;
    expect(left!.status).toBe("failed");
    expect(await holder()).toBeUndefined();
  }, 180_000);
});

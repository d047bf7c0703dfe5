/**
 * Issue 26, issue 38: the run lock is a lease row renewed on the database's clock (no session of
 * its own, so it passes through PgBouncer in transaction mode); once another process has taken it
 * over (its lease ended), the holder's signal aborts and the file phase starts no more requests. A
 * crashed holder's lease ends on its own; its pid and host never free it (issue 48, point 12).
 */
import { spawnSync } from "node:child_process";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sql } from "../../src/db/connect.ts";
import { acquireRunLock, LEASE_SECONDS, RunLockLostError } from "../../src/run/lock.ts";
import { fetchOpenFiles } from "../../src/sync/file-fetch.ts";
import { noProgress } from "../../src/sync/progress.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { waitUntil } from "../helpers/wait.ts";

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

/** Makes the current lease end now on the database's clock, as a holder that stopped renewing. */
async function expireLease(sql: Sql): Promise<void> {
  await sql`update regwatch.run_lease set expires_at = clock_timestamp() - interval '1 second'`;
}

/** Another process taking the lock once the lease is past its end. */
async function takeOver(sql: Sql) {
  await expireLease(sql);
  return acquireRunLock(sql);
}

describe("the run lock's liveness", () => {
  it("is lost once its lease has ended and another took it: the signal aborts, verify and heldSql say so", async () => {
    const { sql } = test.db;
    const lock = await acquireRunLock(sql, { renewMs: 50 });
    let other: Awaited<ReturnType<typeof acquireRunLock>> | undefined;
    try {
      await lock.verify();
      const [before] = await sql`select ${lock.heldSql(sql)} as held`;
      expect(before!.held).toBe(true);
      // Held and renewed: no one else may take it.
      await expect(acquireRunLock(sql)).rejects.toMatchObject({ code: "LOCKED" });
      other = await takeOver(sql);
      await waitUntil(() => lock.signal.aborted, { what: "the lock's loss" });
      // The database is up: the lock is what was lost, and the message says so.
      expect(lock.signal.reason).toBeInstanceOf(RunLockLostError);
      await expect(lock.verify()).rejects.toBeInstanceOf(RunLockLostError);
      const [after] = await sql`select ${lock.heldSql(sql)} as held`;
      expect(after!.held).toBe(false);
      const [theirs] = await sql`select ${other.heldSql(sql)} as held`;
      expect(theirs!.held).toBe(true);
    } finally {
      await lock.release();
      await other?.release();
    }
    // The loser's release leaves the winner's lease alone; released, it is free for the next run.
    const next = await acquireRunLock(sql);
    await next.release();
  });

  it("a lease past its end is free for the next run, and the run it left is marked failed", async () => {
    const { sql } = test.db;
    // A holder on another host that stopped renewing (its process crashed).
    await sql`insert into regwatch.run_lease (holder, pid, host, expires_at)
              values ('crashed', 1, 'elsewhere', clock_timestamp() + interval '1 hour')`;
    const [run] = await sql<{ id: number }[]>`
      insert into regwatch.runs (kind, trigger, status, pid, host) values ('sync', 'cli', 'running', 1, 'elsewhere')
      returning id`;
    await expect(acquireRunLock(sql)).rejects.toThrow(/pid 1 on elsewhere holds the run lock/);
    await expireLease(sql);
    const lock = await acquireRunLock(sql);
    await lock.release();
    const [row] = await sql<{ status: string }[]>`select status from regwatch.runs where id = ${run!.id}`;
    expect(row!.status).toBe("failed");
    expect(await sql`select 1 from regwatch.run_lease`).toHaveLength(0);
  });

  it("a holder of this host whose pid is no process here keeps its lease until it ends", async () => {
    const { sql } = test.db;
    const lease = async () => {
      const [row] = await sql<{ holder: string; pid: number; left: number }[]>`
        select holder, pid, extract(epoch from expires_at - clock_timestamp())::float8 as left
        from regwatch.run_lease`;
      return row;
    };
    // Another container with the same host name: its pid means nothing in this pid namespace.
    const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    const endedPid = Number(child.stdout.toString());
    await sql`insert into regwatch.run_lease (holder, pid, host, expires_at)
              values ('other', ${endedPid}, ${hostname()}, clock_timestamp() + interval '1 hour')`;
    const refused = await acquireRunLock(sql).then(
      (wrongly) => wrongly.release(),
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({ code: "LOCKED" });
    expect((await lease())?.holder).toBe("other");

    // Once its heartbeat has ended on the database's clock, it is free.
    await expireLease(sql);
    const lock = await acquireRunLock(sql);
    const taken = await lease();
    expect(taken).toMatchObject({ pid: process.pid });
    expect(taken!.left).toBeLessThanOrEqual(LEASE_SECONDS);
    expect(await lock.release()).toBe(true);
    expect(await lease()).toBeUndefined();
  });

  it("stops the file phase from starting requests once it is lost", async () => {
    const { sql } = test.db;
    await sql`truncate regwatch.change_files`;
    const paths = Array.from({ length: 10 }, (_, i) => `https://files.example/${i}.json`);
    for (const path of paths) await sql`insert into regwatch.change_files (path) values (${path})`;
    const held = await acquireRunLock(sql, { renewMs: 50 });
    const requested: string[] = [];
    try {
      const stats = await fetchOpenFiles({
        sql,
        concurrency: 1,
        progress: noProgress,
        signal: held.signal,
        lock: held,
        fetchFile: async (path) => {
          requested.push(path);
          if (requested.length === 3) {
            // The lock goes while this request is in flight; it ends once the loss is noticed.
            await (await takeOver(sql)).release();
            await waitUntil(() => held.signal.aborted, { what: "the lock's loss" });
          }
          throw new Error("not fetched in this test");
        },
      });
      expect(requested).toHaveLength(3);
      expect(stats.skipped).toBe(paths.length - 2);
    } finally {
      await held.release();
    }
  });
});

/**
 * Issue 26: the run lock is proved alive on its own session (a keep-alive query on the lock's
 * connection, and that connection closing), not by a pid in pg_locks; once it is lost, the file
 * phase starts no more requests. Before, the lock was checked only before window commits, never in
 * a file phase that can last hours.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sql } from "../../src/db/connect.ts";
import { acquireRunLock, RunLockLostError } from "../../src/db/lock.ts";
import { fetchOpenFiles } from "../../src/sync/file-fetch.ts";
import { noProgress } from "../../src/sync/progress.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { waitUntil } from "../helpers/wait.ts";

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

/** Ends the lock's session as an administrator, a failover or a pooler's reset would. */
async function terminateLockSession(sql: Sql): Promise<void> {
  await sql`
    select pg_terminate_backend(pid) from pg_locks
    where locktype = 'advisory' and granted and classid::bigint = ${0x72_77_72_6e} and objsubid = 2`;
}

describe("the run lock's liveness", () => {
  it("is lost as soon as its session ends: the signal aborts, verify and heldSql say so", async () => {
    const { sql } = test.db;
    const lock = await acquireRunLock(sql, { keepAliveMs: 50 });
    try {
      await lock.verify();
      const [before] = await sql`select ${lock.heldSql(sql)} as held`;
      expect(before!.held).toBe(true);
      await terminateLockSession(sql);
      await waitUntil(() => lock.signal.aborted, { what: "the lock's loss" });
      // The database is up: the lock is what was lost, and the message says so.
      expect(lock.signal.reason).toBeInstanceOf(RunLockLostError);
      await expect(lock.verify()).rejects.toBeInstanceOf(RunLockLostError);
      const [after] = await sql`select ${lock.heldSql(sql)} as held`;
      expect(after!.held).toBe(false);
    } finally {
      await lock.release();
    }
    // Released with its session gone, it is free for the next run.
    const next = await acquireRunLock(sql);
    await next.release();
  });

  it("stops the file phase from starting requests once it is lost", async () => {
    const { sql } = test.db;
    await sql`truncate regwatch.change_files`;
    const paths = Array.from({ length: 10 }, (_, i) => `https://files.example/${i}.json`);
    for (const path of paths) await sql`insert into regwatch.change_files (path) values (${path})`;
    const held = await acquireRunLock(sql, { keepAliveMs: 50 });
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
            await terminateLockSession(sql);
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

/**
 * The lease sweep is one step: two workers sweeping at once release a dead worker's jobs once
 * (one of them marks it and unlocks its jobs, the other finds it already stopped), a live
 * worker's jobs stay locked, and the sweep reads the database's clock only. Real Postgres, the
 * real job queue's schema; the two sweepers are made to meet by a third session holding the dead
 * worker's row until both are waiting for it.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scopedSql } from "../../src/db/scoped-sql.ts";
import { sweepExpired } from "../../src/fleet/leases.ts";
import { enqueue, openQueue } from "../../src/fleet/queue.ts";
import { queuedJobs } from "../../src/fleet/queue-counts.ts";
import { writeHeartbeat } from "../../src/fleet/sql/workers.ts";
import { createLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { waitUntil } from "../helpers/wait.ts";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t?.drop());

const beat = (id: string, lockId: string) => ({
  id,
  lockIds: [lockId, `${lockId}-worker`],
  host: "h",
  pid: 1,
  concurrency: 1,
  jobsRunning: 1,
  jobsDone: 0,
  jobsFailed: 0,
});

describe("the lease sweep", () => {
  it("two sweepers at once release a dead worker's jobs once, and leave a live worker's alone", async () => {
    const sql = t.db.sql;
    const queue = await openQueue(t.url);
    const [deadJob, liveJob] = await enqueue(queue, [
      { kind: "deliver", account: "alpha" },
      { kind: "deliver", account: "beta" },
    ]);
    await queue.withPgClient(async (c) => {
      await c.query(
        "update graphile_worker._private_jobs set locked_at = now(), locked_by = 'dead-pool' where id = $1",
        [deadJob!.id],
      );
      await c.query(
        "update graphile_worker._private_jobs set locked_at = now(), locked_by = 'live-pool' where id = $1",
        [liveJob!.id],
      );
    });
    await writeHeartbeat(sql, beat("dead", "dead-pool"));
    await writeHeartbeat(sql, beat("live", "live-pool"));
    await sql`update ${sql.t.worker_heartbeats} set heartbeat_at = now() - interval '1 hour' where id = 'dead'`;

    const sweeper = (id: string) => {
      const lines: Record<string, unknown>[] = [];
      const client = postgres(t.url, { max: 1, onnotice: () => {} });
      const log = createLogger({ stream: { write: (l: string) => lines.push(JSON.parse(l)) } });
      const deps = { sql: scopedSql(client, "regwatch"), log, leaseSeconds: 60, utils: queue };
      return { id, lines, client, sweep: () => sweepExpired(deps, id) };
    };
    const a = sweeper("sweeper-a");
    const b = sweeper("sweeper-b");
    const holder = await sql.reserve();
    try {
      await holder`begin`;
      await holder`select id from ${holder.t.worker_heartbeats} where id = 'dead' for update`;
      const sweeps = Promise.all([a.sweep(), b.sweep()]);
      await waitUntil(
        async () => {
          const [row] = await sql<{ n: number }[]>`
            select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`;
          return row!.n === 2;
        },
        { what: "both sweepers waiting for the dead worker's row" },
      );
      await holder`commit`;
      const released = await sweeps;
      expect(released.reduce((n, r) => n + r, 0)).toBe(1);
      const said = [...a.lines, ...b.lines].filter((l) => l.worker === "dead");
      expect(said).toHaveLength(1);
    } finally {
      holder.release();
      await a.client.end();
      await b.client.end();
    }

    const jobs = new Map((await queuedJobs(sql)).map((j) => [j.id, j.lockedBy]));
    expect(jobs.get(deadJob!.id)).toBeNull();
    expect(jobs.get(liveJob!.id)).toBe("live-pool");
    const workers = await sql<{ id: string; stop_reason: string | null }[]>`
      select id, stop_reason from ${sql.t.worker_heartbeats} order by id`;
    expect(workers).toEqual([
      { id: "dead", stop_reason: "lease expired" },
      { id: "live", stop_reason: null },
    ]);
    await queue.release();
  });
});

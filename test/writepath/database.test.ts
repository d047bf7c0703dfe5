import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  changesAnswer,
  type HostileRegistry,
  hostileEnv,
  item,
  startHostileRegistry,
} from "../helpers/hostile-registry.ts";
import { coveredRanges } from "../helpers/sync.ts";

const LIST = "wl_dbgone";
// 2 March 2024 is the first day; the registry's "today" is whatever the wall clock says, so the
// plan has many windows and the database trouble starts in the middle of them.
const START = "2023-01-01";

describe("the database goes away or turns read-only in the middle of a sync", () => {
  let registry: HostileRegistry;
  let t: TestDatabase;
  let admin: postgres.Sql;
  let requests = 0;
  let trouble: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    admin = postgres(inject("pgServerUrl"), { max: 1, onnotice: () => {} });
    registry = await startHostileRegistry({
      lists: [{ list_key: LIST, list_name: "db gone", created_at: START }],
      changes: async (q) => {
        requests++;
        if (requests === 5 && trouble) await trouble();
        return changesAnswer(q.from, q.to, [item(registry.url, "12345678", q.from)]);
      },
      file: () => ({ headers: { "content-type": "application/json" }, body: '{"a":1}' }),
    });
  });
  afterAll(async () => {
    await t?.drop();
    await registry?.close();
    await admin?.end();
  });

  const terminateRegwatch = (idleOnly = false) => admin`
    select pg_terminate_backend(pid) from pg_stat_activity
    where datname = ${t.name} and application_name like 'regwatch/%' and pid <> pg_backend_pid()
      and (not ${idleOnly} or state = 'idle')`;

  const env = () => ({
    ...hostileEnv(registry, { REGWATCH_START_DATE: START, REGWATCH_CONCURRENCY: "2" }),
    DATABASE_URL: t.url,
  });

  it("a database turned read-only ends the run with one message naming it, exit 1; the next run converges", async () => {
    t = await createTestDatabase();
    requests = 0;
    // Set once the run is under way; only sessions that start afterwards see it, so the process
    // is made to reconnect by cutting its idle sessions (the lock's included).
    trouble = async () => {
      await admin.unsafe(`alter database "${t.name}" set default_transaction_read_only = on`);
      await terminateRegwatch(true);
    };
    const started = Date.now();
    const result = await runCli(["sync", "--json"], env(), 60_000);
    const seconds = (Date.now() - started) / 1000;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/regwatch: (database problem|the run lock was lost)/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr).not.toMatch(/TypeError/);
    expect(seconds).toBeLessThan(60);

    trouble = undefined;
    await admin.unsafe(`alter database "${t.name}" reset default_transaction_read_only`);
    // The lost run could not give its lease back (a read-only database takes no write): the lease
    // ends by itself within 30 s of its last renewal, ended here in the database instead of waited.
    await t.db.sql`update regwatch.run_lease set expires_at = clock_timestamp() - interval '1 second'`;
    const again = await runCli(["sync", "--json"], env(), 120_000);
    expect(again.stderr).not.toMatch(/\n\s+at /);
    expect(again.code).toBe(0);
    const ranges = await coveredRanges(t.db.sql);
    expect(ranges[LIST]).toHaveLength(1);
    expect(ranges[LIST]![0]!.startsWith(START)).toBe(true);
    const [failed] = await t.db.sql`select count(*)::int as n from regwatch.runs where status = 'running'`;
    expect(failed!.n).toBe(0);
  }, 180_000);

  it("a database read-only from the start: the run fails with a message naming it, exit 1", async () => {
    await t?.drop();
    t = await createTestDatabase();
    requests = 0;
    trouble = undefined;
    await admin.unsafe(`alter database "${t.name}" set default_transaction_read_only = on`);
    const result = await runCli(["sync"], env(), 60_000);
    await admin.unsafe(`alter database "${t.name}" reset default_transaction_read_only`);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      "regwatch: database problem: the database is read-only (a standby, or default_transaction_read_only is on)",
    );
  }, 180_000);

  it("connections terminated mid-run (lock and pool) end the run at once, exit 1, one message", async () => {
    await t?.drop();
    t = await createTestDatabase();
    requests = 0;
    trouble = async () => {
      await terminateRegwatch();
    };
    const result = await runCli(["sync"], env(), 60_000);
    if (!/regwatch: (the run lock was lost|database problem)/.test(result.stderr)) console.log(result.stderr);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/regwatch: (the run lock was lost|database problem)/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    trouble = undefined;
    const again = await runCli(["sync"], env(), 120_000);
    expect(again.code).toBe(0);
  }, 180_000);
});

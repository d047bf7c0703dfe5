import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXIT, exitCodeOf, LockHeldError, UsageError } from "../../src/errors.ts";
import { silentLogger } from "../../src/logger.ts";
import { acquireRunLock } from "../../src/run/lock.ts";
import { withRun } from "../../src/run/with-run.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

describe("withRun", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
  });
  const runs = () =>
    t.db.sql<{ kind: string; status: string; error: string | null; stats: Record<string, unknown> }[]>`
      select kind, status, error, stats from regwatch.runs order by id`;
  const deps = () => ({ sql: t.db.sql, log: silentLogger });

  it("a usage error while preparing leaves no run row and is thrown", async () => {
    await t.db.sql`delete from regwatch.runs`;
    await expect(
      withRun(deps(), {
        kind: "sync",
        trigger: "cli",
        prepare: async () => {
          throw new UsageError("--list nope: no such watch list");
        },
        body: async () => ({ status: "ok", stats: {}, result: 1 }),
      }),
    ).rejects.toBeInstanceOf(UsageError);
    expect(await runs()).toEqual([]);
  });

  it("any other failure while preparing (the first request refused) is a failed run", async () => {
    await t.db.sql`delete from regwatch.runs`;
    const result = await withRun(deps(), {
      kind: "sync",
      trigger: "cli",
      stats: { options: { kind: "sync" } },
      prepare: async () => {
        throw new Error("GET /v2/lists answered 401");
      },
      body: async () => ({ status: "ok", stats: {}, result: 1 }),
    });
    expect(result.status).toBe("failed");
    expect(result.error?.message).toMatch(/401/);
    expect((await runs()).map((r) => [r.kind, r.status, r.error])).toEqual([
      ["sync", "failed", "GET /v2/lists answered 401"],
    ]);
  });

  it("records the body's status and stats, runs cleanups last first, and releases the lock it took", async () => {
    await t.db.sql`delete from regwatch.runs`;
    const order: string[] = [];
    const result = await withRun(deps(), {
      kind: "reconcile",
      trigger: "schedule",
      stats: { dryRun: false },
      body: async (run) => {
        run.defer(() => order.push("first registered"));
        run.defer(() => order.push("second registered"));
        // While the run goes on, another process cannot take the lock.
        await expect(acquireRunLock(t.db.sql)).rejects.toBeInstanceOf(LockHeldError);
        return { status: "partial", stats: { added: 2 }, error: "one request failed", result: "done" };
      },
    });
    expect(result).toMatchObject({ status: "partial", result: "done" });
    expect(order).toEqual(["second registered", "first registered"]);
    expect(await runs()).toEqual([
      {
        kind: "reconcile",
        status: "partial",
        error: "one request failed",
        stats: { dryRun: false, added: 2 },
      },
    ]);
    const lock = await acquireRunLock(t.db.sql);
    await lock.release();
  });

  it("a body that throws ends the run failed and returns the error", async () => {
    await t.db.sql`delete from regwatch.runs`;
    const result = await withRun(deps(), {
      kind: "backfill",
      trigger: "cli",
      body: async () => {
        throw new Error("connection lost");
      },
    });
    expect(result).toMatchObject({ status: "failed", error: new Error("connection lost") });
    expect((await runs()).map((r) => [r.status, r.error])).toEqual([["failed", "connection lost"]]);
  });
});

describe("exitCodeOf", () => {
  it("maps every outcome and error family to the documented exit statuses", () => {
    expect(exitCodeOf({ status: "ok" })).toBe(EXIT.ok);
    expect(exitCodeOf({ status: "in-sync" })).toBe(EXIT.ok);
    expect(exitCodeOf({ status: "applied" })).toBe(EXIT.ok);
    expect(exitCodeOf({ status: "pending" })).toBe(EXIT.pending);
    expect(exitCodeOf({ status: "partial" })).toBe(EXIT.partial);
    expect(exitCodeOf({ status: "refused" })).toBe(EXIT.failed);
    expect(exitCodeOf({ status: "failed", error: new Error("x") })).toBe(EXIT.failed);
    expect(exitCodeOf({ status: "failed", error: new LockHeldError("held") })).toBe(EXIT.locked);
    expect(exitCodeOf(new UsageError("bad"))).toBe(EXIT.usage);
  });
});

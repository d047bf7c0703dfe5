/**
 * The deliverer as its own worker, against a real Postgres and receivers in the test: one that
 * stalls, one that looks for the deliverer's open transactions while it answers, one that fails each message twice,
 * one that fails at random (seeded), a deliverer whose database connection dies between send and
 * record, and two deliverers at once (e-mail recipients: delivery-email.test.ts).
 * Time is a simulated clock wherever backoff, leases or ages matter.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { Registry } from "prom-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AlertConfig, deliverAlerts } from "../../src/alerts/deliver.ts";
import { startAlertTicker } from "../../src/alerts/hooks.ts";
import { registerAlertMetrics } from "../../src/alerts/metrics.ts";
import { nextState } from "../../src/alerts/retry-policy.ts";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import type { Sql } from "../../src/db/connect.ts";
import { scopedSql } from "../../src/db/scoped-sql.ts";
import { silentLogger } from "../../src/logger.ts";
import { registerSecrets } from "../../src/secrets.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { alertConfig, SECRET, storeRun } from "./harness.ts";

interface Hit {
  id: string;
  body: string;
}

/** A webhook receiver whose answer to each request the test decides (and may delay). */
async function startHook(answer: (id: string, seen: number) => Promise<number> | number) {
  const hits: Hit[] = [];
  const seen = new Map<string, number>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const id = String(req.headers["webhook-id"]);
      hits.push({ id, body: Buffer.concat(chunks).toString("utf8") });
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      const status = await answer(id, n);
      if (status === 0) return;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A seeded generator (mulberry32): the same failures on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

describe("the deliverer as its own worker", () => {
  let t: TestDatabase;
  let clock: number;
  const now = () => new Date(clock);
  const closers: Array<() => Promise<void>> = [];
  let seq = 0;

  const deliver = (extra: Partial<AlertConfig> = {}, ignoreBackoff = false, sql: Sql = t.db.sql) =>
    deliverAlerts(
      { sql, config: alertConfig(extra), log: silentLogger, now, random: () => 0.5 },
      { ignoreBackoff },
    );

  async function rule(target: string, channel: "webhook" | "email" = "webhook") {
    await insertAlertRule(t.db.sql, {
      name: `r${++seq}`,
      channel,
      target,
      lists: [],
      headings: [],
      digest: false,
    });
  }

  /** `n` changes about different businesses, one message each. */
  async function changes(n: number) {
    await storeRun(
      t.db.sql,
      "sync",
      Array.from({ length: n }, (_, i) => ({
        taxId: String(50_000_000 + seq * 1000 + i),
        date: "2026-11-20",
        headings: ["seat"],
        lists: ["a"],
      })),
    );
  }

  const rows = () =>
    t.db.sql<
      {
        message_id: string;
        status: string;
        attempts: number;
        last_error: string | null;
        next_attempt_at: Date;
      }[]
    >`select message_id, status, attempts, last_error, next_attempt_at from regwatch.alert_deliveries order by id`;

  beforeAll(async () => {
    registerSecrets([SECRET]);
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
  });
  beforeEach(async () => {
    clock = Date.now() + 60_000;
    for (const close of closers.splice(0)) await close();
    await t.db.sql`delete from regwatch.alert_rules`;
    await t.db.sql`delete from regwatch.alert_deliveries`;
  });

  it("sends with no transaction open: while a receiver holds each request, none of the deliverer's sessions is in a transaction", async () => {
    // The deliverer's own sessions carry a name of their own, so the receiver can look at them in
    // pg_stat_activity while it holds the request: a transaction left open across a send (which a
    // managed Postgres's idle_in_transaction_session_timeout would end) shows there. One message,
    // so no other message's outcome is being recorded at that moment.
    const seenInTransaction: number[] = [];
    const hook = await startHook(async () => {
      const [row] = await t.db.sql<{ open: number }[]>`
        select count(*)::int as open from pg_stat_activity
        where application_name = 'regwatch-deliverer-under-test' and xact_start is not null`;
      seenInTransaction.push(row!.open);
      return 200;
    });
    closers.push(hook.close);
    const watched = scopedSql(
      postgres(t.url, {
        max: 4,
        onnotice: () => {},
        connection: { application_name: "regwatch-deliverer-under-test" },
      }),
      "regwatch",
    );
    closers.push(() => watched.end());
    await rule(hook.url);
    await changes(1);
    expect(await deliver({}, false, watched)).toMatchObject({ sent: 1, retrying: 0, dead: 0 });
    expect(seenInTransaction).toEqual([0]);
    expect((await rows()).map((r) => [r.status, r.attempts])).toEqual([["sent", 1]]);
    expect(await deliver({}, true, watched)).toMatchObject({ attempted: 0 });
    expect(hook.hits).toHaveLength(1);
  });

  it("a receiver answering 500 twice to each message still gets every message within three passes", async () => {
    const hook = await startHook((_id, seen) => (seen <= 2 ? 500 : 200));
    closers.push(hook.close);
    await rule(hook.url);
    await changes(40);
    for (let pass = 0; pass < 3; pass++) await deliver({}, true);
    const all = await rows();
    expect(all.filter((r) => r.status === "sent")).toHaveLength(40);
    expect(all.every((r) => r.attempts === 3)).toBe(true);
  });

  it("a receiver failing 20% of attempts at random (seeded) gets every message, each under one id", async () => {
    const random = seeded(26);
    const hook = await startHook(() => (random() < 0.2 ? 500 : 200));
    closers.push(hook.close);
    await rule(hook.url);
    await changes(50);
    for (let pass = 0; pass < 10; pass++) await deliver({ alertMaxAttempts: 12 }, true);
    const all = await rows();
    expect(all.every((r) => r.status === "sent")).toBe(true);
    const accepted = new Set(hook.hits.map((h) => h.id));
    expect(accepted).toEqual(new Set(all.map((r) => r.message_id)));
    expect(hook.hits.length).toBeGreaterThan(50);
  });

  it("a crash between send and record sends the same body under the same id once the lease runs out", async () => {
    const doomed = scopedSql(
      postgres(t.url, {
        max: 2,
        onnotice: () => {},
      }),
      "regwatch",
    );
    let crashed = false;
    const hook = await startHook(async () => {
      // The deliverer's database connection dies while the receiver takes the message.
      if (!crashed) {
        crashed = true;
        await doomed.end({ timeout: 0 });
      }
      return 200;
    });
    closers.push(hook.close);
    await rule(hook.url);
    await changes(1);
    await expect(deliver({}, false, doomed)).rejects.toThrow();
    expect(hook.hits).toHaveLength(1);
    const [held] = await rows();
    expect(held).toMatchObject({ status: "pending", attempts: 0 });
    // While the lease holds, nobody sends it again; the metrics show it as being sent.
    expect(await deliver({}, true)).toMatchObject({ attempted: 0 });
    const registry = new Registry();
    registerAlertMetrics(registry, async () => t.db.sql);
    expect(await registry.metrics()).toMatch(/^regwatch_alert_sending 1$/m);
    // Leases run on the database's clock: the lease is made to run out there.
    await t.db.sql`update regwatch.alert_deliveries set lease_until = now() - interval '1 second'`;
    clock += 11 * alertConfig().requestTimeoutMs;
    expect(await deliver()).toMatchObject({ sent: 1 });
    expect(hook.hits).toHaveLength(2);
    expect(hook.hits[1]!.id).toBe(hook.hits[0]!.id);
    expect(hook.hits[1]!.body).toBe(hook.hits[0]!.body);
  });

  it("two deliverers at once never send one message twice", async () => {
    const hook = await startHook(async () => {
      await delay(20);
      return 200;
    });
    closers.push(hook.close);
    await rule(hook.url);
    await changes(60);
    const [a, b] = await Promise.all([deliver({}, true), deliver({}, true)]);
    expect(a.sent + b.sent).toBe(60);
    expect(hook.hits).toHaveLength(60);
    expect(new Set(hook.hits.map((h) => h.id)).size).toBe(60);
  });

  it("the daemon's deliverer stops within a request timeout however many messages its receiver hangs on", async () => {
    let requests = 0;
    let first: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      first = resolve;
    });
    const hook = await startHook(() => {
      requests++;
      first();
      return 0;
    });
    closers.push(hook.close);
    await rule(hook.url);
    await changes(40);
    const stop = startAlertTicker(
      { sql: t.db.sql, config: alertConfig({ requestTimeoutMs: 300 }), log: silentLogger },
      60_000,
    );
    await started;
    await stop();
    // Only the messages already in flight were sent; the rest were released unsent, none leased.
    expect(requests).toBeLessThanOrEqual(alertConfig().alertTargetConcurrency);
    const [counts] = await t.db.sql<{ tried: number; untried: number; leased: number }[]>`
      select count(*) filter (where attempts > 0)::int as tried,
             count(*) filter (where attempts = 0)::int as untried,
             count(*) filter (where lease_until is not null)::int as leased
      from regwatch.alert_deliveries`;
    expect(counts).toEqual({ tried: requests, untried: 40 - requests, leased: 0 });
  });

  it("caps each backoff step (20 attempts wait at most the cap) and honours Retry-After only up to it", () => {
    const policy = { baseMs: 30_000, maxAttempts: 50, capMs: 3_600_000, giveUpMs: 365 * 24 * 3_600_000 };
    const at = new Date("2026-11-20T00:00:00Z");
    const wait = (attempts: number, retryAfterMs?: number) =>
      nextState(
        { kind: "retry", error: "x", retryAfterMs },
        attempts,
        policy,
        at,
        () => 1,
      ).nextAttemptAt.getTime() - at.getTime();
    expect(wait(1)).toBe(30_000);
    expect(wait(20)).toBe(3_600_000);
    expect(wait(2, 90 * 24 * 3_600_000)).toBe(3_600_000);
  });

  it("a message failing past its give-up age is dead, and one queued before it is dead without another attempt", async () => {
    const hook = await startHook(() => 503);
    closers.push(hook.close);
    await rule(hook.url);
    await changes(1);
    expect(await deliver({ alertGiveUpHours: 1 })).toMatchObject({ retrying: 1 });
    // The steps reach the cap; the next one would fall past the hour: dead now.
    for (let i = 0; i < 40 && (await rows())[0]!.status === "pending"; i++) {
      clock = (await rows())[0]!.next_attempt_at.getTime();
      await deliver({ alertGiveUpHours: 1, alertMaxAttempts: 50, alertRetryCapMs: 600_000 });
    }
    const [dead] = await rows();
    expect(dead!.status).toBe("dead");
    expect(dead!.last_error).toMatch(/not delivered within 1 h of being queued/);

    await t.db.sql`delete from regwatch.alert_deliveries`;
    await changes(1);
    await deliver({}, false).then(() => undefined);
    const attemptsBefore = hook.hits.length;
    await t.db.sql`update regwatch.alert_deliveries set status = 'pending', attempts = 1,
                   created_at = created_at - interval '25 hours' where status <> 'sent'`;
    expect(await deliver({}, true)).toMatchObject({ dead: 1, attempted: 0 });
    expect(hook.hits.length).toBe(attemptsBefore);
    expect((await rows())[0]!.last_error).toMatch(/not delivered within 24 h/);
  });

  it("a receiver failing several messages in a row is paused, then probed with one message", async () => {
    const answers = { status: 503 };
    const hook = await startHook(() => answers.status);
    closers.push(hook.close);
    await rule(hook.url);
    await changes(12);
    const one = { alertTargetConcurrency: 1 };
    // The daemon's deliverer keeps its breakers from pass to pass.
    const { targetGates } = await import("../../src/alerts/deliver.ts");
    const gates = targetGates(alertConfig(one), now);
    const pass = () =>
      deliverAlerts({
        sql: t.db.sql,
        config: alertConfig(one),
        log: silentLogger,
        now,
        random: () => 0.5,
        gates,
      });
    expect(await pass()).toMatchObject({ attempted: 5, retrying: 5, deferred: 7 });
    expect(await pass()).toMatchObject({ attempted: 0 });
    // After the pause one message probes; it fails: paused again, twice as long.
    clock += alertConfig().alertRetryBaseMs;
    expect(await pass()).toMatchObject({ attempted: 1, retrying: 1, deferred: 11 });
    clock += alertConfig().alertRetryBaseMs;
    expect(await pass()).toMatchObject({ attempted: 0 });
    // The probe succeeds: the circuit closes and the rest follows in the same pass.
    clock += alertConfig().alertRetryBaseMs;
    answers.status = 200;
    const before = hook.hits.length;
    expect(await pass()).toMatchObject({ sent: 12, retrying: 0 });
    expect(hook.hits.length - before).toBe(12);
  });
});

/**
 * Delivery leases on the database's clock: a deliverer whose own clock is hours ahead does not take
 * a message another deliverer holds under a live lease, one whose clock is hours behind takes a
 * message whose lease has run out, and the lease a deliverer writes runs from the database's now
 * whatever its own clock says. The scheduler's "deliveries due" look reads leases the same way.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deliverAlerts } from "../../src/alerts/deliver.ts";
import { claimBatch, OUTBOX_START } from "../../src/alerts/sql/outbox.ts";
import { deliveriesDue } from "../../src/fleet/sql/status.ts";
import { silentLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { alertConfig } from "./harness.ts";

const HOURS = 3_600_000;
let t: TestDatabase;
let live: number;
let dead: number;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t?.drop());

beforeEach(async () => {
  const sql = t.db.sql;
  await sql`truncate ${sql.t.alert_rules}, ${sql.t.alert_deliveries} cascade`;
  const [rule] = await sql<{ id: number }[]>`
    insert into ${sql.t.alert_rules} (name, channel, target) values ('n', 'notify', 'regwatch_clock') returning id`;
  const insert = (lease: string) => sql<{ id: number }[]>`
    insert into ${sql.t.alert_deliveries} (rule_id, kind, alert_ids, channel, target, oldest_change, next_attempt_at,
                                  lease_until, lease_token)
    values (${rule!.id}, 'alert', '{}', 'notify', 'regwatch_clock', '2026-01-01', '2000-01-01',
            now() + ${lease}::interval, 'another deliverer')
    returning id::int`;
  live = (await insert("10 minutes"))[0]!.id;
  dead = (await insert("-1 minute"))[0]!.id;
});

async function rows() {
  return t.db.sql<{ id: number; status: string; lease_token: string | null }[]>`
    select id::int, status, lease_token from ${t.db.sql.t.alert_deliveries} order by id`;
}

function deliverer(skewMs: number) {
  return deliverAlerts({
    sql: t.db.sql,
    config: alertConfig(),
    log: silentLogger,
    now: () => new Date(Date.now() + skewMs),
  });
}

describe("delivery leases, whatever a deliverer's clock says", () => {
  it("a clock hours ahead takes no live lease; it sends only the message whose lease ran out", async () => {
    const report = await deliverer(3 * HOURS);
    expect(report.sent).toBe(1);
    expect(await rows()).toEqual([
      { id: live, status: "pending", lease_token: "another deliverer" },
      { id: dead, status: "sent", lease_token: null },
    ]);
  });

  it("a clock hours behind does not keep a dead lease alive: it takes the message", async () => {
    const report = await deliverer(-3 * HOURS);
    expect(report.sent).toBe(1);
    expect((await rows()).map((r) => r.status)).toEqual(["pending", "sent"]);
  });

  it("the lease a deliverer writes runs from the database's now, not from its own clock", async () => {
    for (const skew of [-3 * HOURS, 3 * HOURS]) {
      await t.db
        .sql`update ${t.db.sql.t.alert_deliveries} set lease_until = now() - interval '1 second' where id = ${dead}`;
      const claimed = await t.db.sql.begin((tx) =>
        claimBatch(tx, {
          now: new Date(Date.now() + skew),
          ignoreBackoff: true,
          after: OUTBOX_START,
          limit: 10,
          leaseMs: 60_000,
          token: `skewed ${skew}`,
          skipTargets: [],
        }),
      );
      expect(claimed.map((r) => r.id)).toEqual([dead]);
      const [lease] = await t.db.sql<{ left: number }[]>`
        select extract(epoch from lease_until - now())::float8 as left from ${t.db.sql.t.alert_deliveries} where id = ${dead}`;
      expect(lease!.left).toBeGreaterThan(50);
      expect(lease!.left).toBeLessThanOrEqual(60);
    }
  });

  it("the scheduler sees a message held under a live lease as not due, whatever its clock", async () => {
    await t.db.sql`update ${t.db.sql.t.alert_deliveries} set lease_until = now() + interval '10 minutes'`;
    expect(await deliveriesDue(t.db.sql, new Date(Date.now() + 3 * HOURS))).toBe(false);
    await t.db
      .sql`update ${t.db.sql.t.alert_deliveries} set lease_until = now() - interval '1 minute' where id = ${dead}`;
    expect(await deliveriesDue(t.db.sql, new Date(Date.now() - 3 * HOURS))).toBe(true);
  });
});

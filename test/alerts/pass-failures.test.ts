/**
 * A message that cannot be sent is never silent: a send that throws inside regwatch (here the
 * signing library refusing a secret too short to decode, as a build that broke the webhook
 * channel once did on every send) and a body that cannot be built are charged to their messages
 * as failed attempts until the retry policy makes them dead, and each failed pass is recorded
 * where status and the metrics show it. Real Postgres, a real receiver, no module replaced.
 */
import { Registry } from "prom-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AlertConfig, deliverAlerts } from "../../src/alerts/deliver.ts";
import { registerAlertMetrics } from "../../src/alerts/metrics.ts";
import { deliveryHealth } from "../../src/alerts/sql/delivery-health.ts";
import { formatStatus, readFullStatus } from "../../src/commands/status.ts";
import { silentLogger } from "../../src/logger.ts";
import { registerSecrets } from "../../src/secrets.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  alertConfig,
  type Receiver,
  ruleForEveryChange,
  SECRET,
  startReceiver,
  storeRun,
} from "./harness.ts";

/** Accepted by the configuration's pattern, refused by standardwebhooks (under 4 base64 characters). */
const SHORT_SECRET = "whsec_abc";

describe("a delivery pass that fails inside regwatch", () => {
  let t: TestDatabase;
  let receiver: Receiver;
  let clock: number;
  const now = () => new Date(clock);
  const deliver = (extra: Partial<AlertConfig> = {}) =>
    deliverAlerts({ sql: t.db.sql, config: alertConfig(extra), log: silentLogger, now, random: () => 0.5 });
  const deliveries = () =>
    t.db.sql<{ channel: string; status: string; attempts: number; last_error: string | null }[]>`
      select channel, status, attempts, last_error from regwatch.alert_deliveries order by id`;
  const metrics = async () => {
    const registry = new Registry();
    registerAlertMetrics(registry, async () => t.db.sql);
    return registry.metrics();
  };
  const status = async () =>
    formatStatus(await readFullStatus(t.db.sql, { tz: "Europe/Budapest", searchMonthlyQuota: 2000 }));

  beforeAll(async () => {
    registerSecrets([SECRET, SHORT_SECRET]);
    t = await createTestDatabase();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.drop();
  });
  beforeEach(async () => {
    // A minute ahead of the database's clock, so messages queued by now() are due at once.
    clock = Date.now() + 60_000;
    receiver.received.length = 0;
    await t.db.sql`delete from regwatch.alert_rules`;
    await t.db.sql`delete from regwatch.alert_delivery_health`;
  });

  it("charges each attempt until the message is dead, records every failed pass, and a clean pass ends the streak", async () => {
    await ruleForEveryChange(t.db.sql, receiver.url);
    await storeRun(t.db.sql, "sync", [
      { taxId: "40000001", date: "2026-11-20", headings: ["seat"], lists: ["a"] },
    ]);
    const broken = { webhookSecret: SHORT_SECRET, alertMaxAttempts: 3 };

    const first = await deliver(broken);
    expect(first).toMatchObject({ raised: 1, attempted: 1, unexpected: 1, retrying: 1, sent: 0 });
    expect(first.error).toMatch(
      /^the webhook send failed inside regwatch, not at the receiver: .*incorrect padding/,
    );
    expect(receiver.received).toHaveLength(0);
    expect(await deliveries()).toEqual([
      {
        channel: "webhook",
        status: "pending",
        attempts: 1,
        last_error: expect.stringMatching(/incorrect padding/),
      },
    ]);
    expect(await deliveryHealth(t.db.sql)).toMatchObject({
      failuresInRow: 1,
      failuresTotal: 1,
      lastFailureMessages: 1,
      lastError: first.error,
    });
    // Queued an hour ago: the age the gauge and status show.
    await t.db.sql`update regwatch.alert_deliveries set created_at = now() - interval '1 hour'`;
    const whileFailing = await metrics();
    expect(whileFailing).toMatch(/^regwatch_alert_delivery_pass_failures_total 1$/m);
    const age = Number(/^regwatch_alert_oldest_pending_seconds (\S+)$/m.exec(whileFailing)![1]);
    expect(age).toBeGreaterThanOrEqual(3600);
    expect(age).toBeLessThan(3700);
    const text = await status();
    expect(text).toMatch(/Alert messages: 0 sent, 1 pending \(the oldest queued 60 min ago\), 0 dead/);
    expect(text).toMatch(
      / {2}DELIVERY FAILING: the last delivery pass failed, the last at .*: the webhook send failed inside regwatch.*incorrect padding/,
    );

    // Each later attempt is charged the same way, until the policy's last one.
    for (const attempts of [2, 3]) {
      clock += 3_600_000;
      await deliver(broken);
      expect((await deliveries())[0]).toMatchObject({ attempts });
    }
    expect((await deliveries())[0]).toMatchObject({
      status: "dead",
      last_error: expect.stringMatching(/incorrect padding.*\(gave up after 3 attempts\)$/),
    });
    expect(await deliveryHealth(t.db.sql)).toMatchObject({ failuresInRow: 3, failuresTotal: 3 });
    expect(await metrics()).toMatch(/^regwatch_alert_delivery_pass_failures_total 3$/m);
    expect(await metrics()).toMatch(/^regwatch_alert_oldest_pending_seconds 0$/m);
    expect(await status()).toMatch(/the last 3 delivery passes failed since /);

    // A pass with nothing to send says nothing about the channel: the streak stays.
    clock += 3_600_000;
    expect(await deliver(broken)).toMatchObject({ attempted: 0 });
    expect(await deliveryHealth(t.db.sql)).toMatchObject({ failuresInRow: 3 });

    // With a secret that signs, the next message goes out and the streak ends.
    await storeRun(t.db.sql, "sync", [
      { taxId: "40000002", date: "2026-11-21", headings: ["seat"], lists: ["a"] },
    ]);
    // Back to the wall clock: the receiver checks the signature's timestamp.
    clock = Date.now() + 60_000;
    expect(await deliver()).toMatchObject({ sent: 1, unexpected: 0 });
    expect(receiver.received.map((r) => r.verified)).toEqual([true]);
    const healed = await deliveryHealth(t.db.sql);
    expect(healed).toMatchObject({ failuresInRow: 0, failuresTotal: 3, failingSince: null });
    expect(healed!.recoveredAt).toBeInstanceOf(Date);
    const after = await status();
    expect(after).not.toMatch(/DELIVERY FAILING/);
    expect(after).toMatch(
      /the last failed delivery pass was at .*incorrect padding.*passes deliver again since/,
    );
    const stored = await t.db.sql`
      select (select string_agg(d::text, '') from regwatch.alert_deliveries d) ||
             (select string_agg(h::text, '') from regwatch.alert_delivery_health h) as text`;
    expect(stored[0]!.text).not.toContain(SHORT_SECRET);
  });

  it("a body that cannot be built is charged to its message, and the rest of the batch is sent", async () => {
    await ruleForEveryChange(t.db.sql, receiver.url, "webhook", "webhook");
    await ruleForEveryChange(t.db.sql, "regwatch_pass_failures", "notify", "notify");
    await storeRun(t.db.sql, "sync", [
      { taxId: "40000003", date: "2026-11-22", headings: ["name"], lists: ["a"] },
    ]);
    // A language no catalog has: the webhook body's text cannot be said (a TypeError in
    // regwatch's own code); the NOTIFY body has no sentence and is built as usual.
    const report = await deliver({ locale: "xx" as never });
    expect(report).toMatchObject({ attempted: 2, sent: 1, retrying: 1, unexpected: 1 });
    expect(report.error).toMatch(/^the message's body could not be built: TypeError: /);
    expect(await deliveries()).toEqual([
      expect.objectContaining({
        channel: "webhook",
        status: "pending",
        attempts: 1,
        last_error: report.error,
      }),
      expect.objectContaining({ channel: "notify", status: "sent", attempts: 1 }),
    ]);
    expect(receiver.received).toHaveLength(0);
    expect(await deliveryHealth(t.db.sql)).toMatchObject({ failuresInRow: 1, lastError: report.error });
    // Built once the language is one regwatch speaks: frozen then, sent, and the streak over.
    clock += 3_600_000;
    expect(await deliver()).toMatchObject({ sent: 1, unexpected: 0 });
    expect(receiver.received).toHaveLength(1);
    expect(await deliveryHealth(t.db.sql)).toMatchObject({ failuresInRow: 0 });
  });
});

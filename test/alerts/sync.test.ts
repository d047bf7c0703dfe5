/**
 * Alerts end to end against the emulator: raised by a sync for changes it stores first, one per
 * change whatever the number of lists, none from a backfill without --alert-history, none for a
 * change read again; a receiver down for a whole sync gets everything from `alerts deliver`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverAlerts } from "../../src/alerts/deliver.ts";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { silentLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, sampleTaxIds, seedList, syncAt } from "../helpers/sync.ts";
import { type Receiver, SECRET, startReceiver } from "./harness.ts";

const MORNING = "2024-03-10T08:00:00+01:00";

describe("alerts raised by sync and backfill", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;
  let receiver: Receiver;
  let listA: string;
  let shared: string[];

  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 5,
      businesses: 1500,
      now: MORNING,
      frozenClock: true,
      rateLimit: 100,
      changesPerBusinessPerMonth: 3,
    });
    const ids = sampleTaxIds(emulator, 12);
    shared = ids.slice(4, 8);
    await seedList(emulator, { name: "suppliers", createdAt: "2024-02-01", taxIds: ids.slice(0, 8) });
    await seedList(emulator, { name: "customers", createdAt: "2024-02-01", taxIds: ids.slice(4, 12) });
    listA = emulator.listsSnapshot().find((l) => l.list_name === "suppliers")!.list_key;
    t = await createTestDatabase();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.drop();
    await emulator?.close();
  });

  const config = () =>
    emulatorConfig(emulator, {
      REGWATCH_WEBHOOK_SECRET: SECRET,
      REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS: "true",
      REGWATCH_ALERT_RETRY_BASE_MS: "1000",
    });
  const count = async (table: string) =>
    Number((await t.db.sql.unsafe(`select count(*)::int as n from regwatch.${table}`))[0]!.n);

  it("a backfill without --alert-history raises no alert", async () => {
    await insertAlertRule(t.db.sql, {
      name: "everything",
      lists: [],
      headings: [],
      channel: "webhook",
      target: receiver.url,
      digest: false,
    });
    const result = await syncAt(t.db.sql, config(), emulator, {
      kind: "backfill",
      from: "2024-02-01",
      to: "2024-02-14",
      lists: [listA],
    });
    expect(result.status).toBe("ok");
    expect(await count("changes")).toBeGreaterThan(0);
    expect(await count("alerts")).toBe(0);
    expect(receiver.received).toHaveLength(0);
  });

  it("a sync raises one alert per change first stored by it, one signed message each, also for changes on two lists", async () => {
    const before = await t.db.sql<{ id: number }[]>`select id::int from regwatch.changes`;
    const result = await syncAt(t.db.sql, config(), emulator);
    expect(result.status).toBe("ok");
    const fresh = await t.db.sql<{ id: number; lists: number }[]>`
      select c.id::int, (select count(*)::int from regwatch.change_sources s where s.change_id = c.id) as lists
      from regwatch.changes c where not (c.id = any (${before.map((b) => b.id)}::bigint[]))`;
    const alerts = await t.db.sql<
      { change_id: number; id: number }[]
    >`select change_id::int, id::int from regwatch.alerts`;
    expect(alerts.map((a) => a.change_id).sort()).toEqual(fresh.map((c) => c.id).sort());
    const onTwoLists = fresh.filter((c) => c.lists === 2);
    expect(onTwoLists.length).toBeGreaterThan(0);

    expect(await count("alert_deliveries")).toBe(alerts.length);
    expect(receiver.received).toHaveLength(alerts.length);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(alerts.length);
    const twoListAlert = alerts.find((a) => a.change_id === onTwoLists[0]!.id)!;
    const message = receiver.received.filter((r) => r.body.data.alert_id === twoListAlert.id);
    expect(message).toHaveLength(1);
    expect(shared).toContain(message[0]!.body.data.tax_id);
    expect(message[0]!.body.data.lists).toEqual(["customers", "suppliers"]);
    const [sent] = await t.db
      .sql`select count(*)::int as n from regwatch.alert_deliveries where status = 'sent'`;
    expect(sent!.n).toBe(alerts.length);
  });

  it("reading stored changes again raises nothing, and a receiver down for a whole sync gets everything later", async () => {
    const alertsBefore = await count("alerts");
    const again = await syncAt(t.db.sql, config(), emulator, {
      kind: "backfill",
      from: "2024-02-01",
      refetch: true,
    });
    expect(again.status).toBe("ok");
    expect(await count("alerts")).toBe(alertsBefore);

    // The next morning, with the receiver failing throughout the sync.
    emulator.advance(24 * 3600_000);
    for (const taxId of shared.slice(0, 2))
      emulator.addChange({
        tax_id: taxId,
        change: "2024-03-10",
        chapter: "registry",
        changed_headings: ["seat"],
      });
    receiver.received.length = 0;
    receiver.answer({ status: 503 });
    const next = await syncAt(t.db.sql, config(), emulator);
    expect(next.status).toBe("ok");
    const pending = await t.db
      .sql`select count(*)::int as n from regwatch.alert_deliveries where status = 'pending'`;
    expect(pending[0]!.n).toBeGreaterThanOrEqual(2);
    // Each message has its own schedule: every one was tried once, after the run's lock was released.
    expect(receiver.received).toHaveLength(pending[0]!.n);

    receiver.answer({ status: 200 });
    const report = await deliverAlerts(
      { sql: t.db.sql, config: config(), log: silentLogger },
      { ignoreBackoff: true },
    );
    expect(report).toMatchObject({ sent: pending[0]!.n, retrying: 0, dead: 0 });
    expect(await count("alert_deliveries")).toBe(await count("alerts"));
    const left = await t.db
      .sql`select count(*)::int as n from regwatch.alert_deliveries where status <> 'sent'`;
    expect(left[0]!.n).toBe(0);
    // Every retry carried the id of its first attempt.
    const ids = new Set(receiver.received.map((r) => r.id));
    expect(ids.size).toBe(pending[0]!.n);
  });

  it("a rule limited to a new list fires for the changes that list reports, though other lists stored them first", async () => {
    const ids = sampleTaxIds(emulator, 12);
    // Businesses suppliers and customers watch already: every change partners reports is stored.
    await seedList(emulator, {
      name: "partners",
      createdAt: "2024-02-01",
      taxIds: [...ids.slice(0, 2), ...ids.slice(9, 11)],
    });
    await insertAlertRule(t.db.sql, {
      name: "partners",
      lists: ["partners"],
      headings: [],
      channel: "webhook",
      target: receiver.url,
      digest: false,
    });
    receiver.received.length = 0;
    const changesBefore = await count("changes");
    const result = await syncAt(t.db.sql, config(), emulator);
    expect(result.status).toBe("ok");
    expect(await count("changes")).toBe(changesBefore);
    const reported = await t.db.sql<{ id: number }[]>`
      select s.change_id::int as id from regwatch.change_sources s
      join regwatch.watch_lists w on w.list_key = s.list_key where w.list_name = 'partners' order by 1`;
    expect(reported.length).toBeGreaterThan(0);
    const raised = await t.db.sql<{ id: number }[]>`
      select a.change_id::int as id from regwatch.alerts a
      join regwatch.alert_rules r on r.id = a.rule_id where r.name = 'partners' order by 1`;
    expect(raised).toEqual(reported);
    // The rule over every list had these changes already; it raises nothing again.
    const everything = await t.db.sql`select count(*)::int as n from regwatch.alerts a
      join regwatch.alert_rules r on r.id = a.rule_id where r.name = 'everything'`;
    expect(everything[0]!.n).toBe((await count("alerts")) - raised.length);
    expect(receiver.received).toHaveLength(raised.length);
    expect(receiver.received.every((r) => (r.body.data.lists as string[]).includes("partners"))).toBe(true);

    // The next day's sync reads those changes again (the lookback): each keeps its one alert.
    emulator.advance(24 * 3600_000);
    const again = await syncAt(t.db.sql, config(), emulator);
    expect(again.status).toBe("ok");
    const raisedAgain = await t.db.sql<{ id: number }[]>`
      select a.change_id::int as id from regwatch.alerts a
      join regwatch.alert_rules r on r.id = a.rule_id where r.name = 'partners' and a.change_id = any (${raised.map((r) => r.id)}::bigint[])`;
    expect(raisedAgain).toHaveLength(raised.length);
    const messages = await t.db.sql`select count(*)::int as n from regwatch.alert_deliveries d
      join regwatch.alert_rules r on r.id = d.rule_id where r.name = 'partners'`;
    expect(messages[0]!.n).toBe(
      (
        await t.db.sql`select count(*)::int as n from regwatch.alerts a
        join regwatch.alert_rules r on r.id = a.rule_id where r.name = 'partners'`
      )[0]!.n,
    );
  });
});

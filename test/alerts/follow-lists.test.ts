/**
 * A rule limited to lists fires the first time one of its lists reports a change after the rule
 * was created, whichever list stored the change first; still one alert per rule and change.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deliverAlerts } from "../../src/alerts/deliver.ts";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { silentLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { alertConfig, type Receiver, reportRun, startReceiver, storeRun } from "./harness.ts";

const config = alertConfig();

describe("alerts follow the list that reported", () => {
  let t: TestDatabase;
  let receiver: Receiver;
  const deliver = () => deliverAlerts({ sql: t.db.sql, config, log: silentLogger }, { ignoreBackoff: true });

  beforeAll(async () => {
    t = await createTestDatabase();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.drop();
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    await t.db.sql`delete from regwatch.alert_rules`;
  });

  const rule = (name: string, lists: string[], headings: string[] = []) =>
    insertAlertRule(t.db.sql, {
      name,
      lists,
      headings,
      channel: "webhook",
      target: receiver.url,
      digest: false,
    });

  async function alerted(name: string): Promise<{ taxId: string; runId: number }[]> {
    return t.db.sql<{ taxId: string; runId: number }[]>`
      select c.tax_id as "taxId", a.run_id::int as "runId"
      from regwatch.alerts a
      join regwatch.alert_rules r on r.id = a.rule_id
      join regwatch.changes c on c.id = a.change_id
      where r.name = ${name} order by c.tax_id`;
  }

  it("a rule limited to beta fires when beta reports a change alpha stored in an earlier run", async () => {
    const stored = await storeRun(t.db.sql, "sync", [
      { taxId: "30000001", date: "2026-11-20", headings: ["seat"], lists: ["alpha"] },
    ]);
    expect(await deliver()).toMatchObject({ raised: 0 });
    await rule("beta only", ["beta"]);
    await rule("beta by key", ["key-beta"]);
    await rule("every list", []);

    const { runId } = await reportRun(t.db.sql, "sync", [{ changeId: stored.changeIds[0]!, list: "beta" }]);
    expect(await deliver()).toMatchObject({ raised: 2, sent: 2, dead: 0 });
    expect(await alerted("beta only")).toEqual([{ taxId: "30000001", runId }]);
    expect(await alerted("beta by key")).toEqual([{ taxId: "30000001", runId }]);
    // A rule over every list still takes only changes first stored after it.
    expect(await alerted("every list")).toEqual([]);
    expect(receiver.received.map((r) => r.body.data.lists)).toEqual([
      ["alpha", "beta"],
      ["alpha", "beta"],
    ]);

    // beta reading the change again adds nothing, so nothing more is raised.
    await reportRun(t.db.sql, "sync", [{ changeId: stored.changeIds[0]!, list: "beta" }]);
    expect(await deliver()).toMatchObject({ raised: 0, attempted: 0 });
  });

  it("raises one alert per rule and change, whether its lists report it in one run or one after another", async () => {
    await rule("alpha or beta", ["alpha", "beta"]);
    const together = await storeRun(t.db.sql, "sync", [
      { taxId: "30000002", date: "2026-11-20", headings: ["seat"], lists: ["alpha", "beta"] },
    ]);
    const first = await storeRun(t.db.sql, "sync", [
      { taxId: "30000003", date: "2026-11-21", headings: ["seat"], lists: ["alpha"] },
    ]);
    expect(await deliver()).toMatchObject({ raised: 2, sent: 2 });
    const later = await reportRun(t.db.sql, "sync", [
      { changeId: first.changeIds[0]!, list: "beta" },
      { changeId: together.changeIds[0]!, list: "gamma" },
    ]);
    expect(await deliver()).toMatchObject({ raised: 0, attempted: 0 });
    expect(await alerted("alpha or beta")).toEqual([
      { taxId: "30000002", runId: together.runId },
      { taxId: "30000003", runId: first.runId },
    ]);
    expect(later.runId).toBeGreaterThan(first.runId);
    const [messages] = await t.db.sql`select count(*)::int as n from regwatch.alert_deliveries d
      join regwatch.alert_rules r on r.id = d.rule_id where r.name = 'alpha or beta'`;
    expect(messages!.n).toBe(2);
  });

  it("raises nothing for a report before the rule, a report of another heading, or a backfill without --alert-history", async () => {
    const stored = await storeRun(t.db.sql, "sync", [
      { taxId: "30000004", date: "2026-11-20", headings: ["seat"], lists: ["alpha"] },
      { taxId: "30000005", date: "2026-11-20", headings: ["name"], lists: ["alpha"] },
      { taxId: "30000006", date: "2026-11-20", headings: ["seat"], lists: ["alpha"] },
      { taxId: "30000007", date: "2026-11-20", headings: ["seat"], lists: ["alpha"] },
    ]);
    const [early, otherHeading, quiet, history] = stored.changeIds as [number, number, number, number];
    await reportRun(t.db.sql, "sync", [{ changeId: early, list: "beta" }]);
    await deliver();
    await rule("beta seats", ["beta"], ["seat"]);
    await reportRun(t.db.sql, "sync", [{ changeId: otherHeading, list: "beta" }]);
    await reportRun(t.db.sql, "backfill", [{ changeId: quiet, list: "beta" }]);
    expect(await deliver()).toMatchObject({ raised: 0 });
    const { runId } = await reportRun(t.db.sql, "backfill", [{ changeId: history, list: "beta" }], {
      alertHistory: true,
    });
    expect(await deliver()).toMatchObject({ raised: 1, sent: 1 });
    expect(await alerted("beta seats")).toEqual([{ taxId: "30000007", runId }]);
  });
});

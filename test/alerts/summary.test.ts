/**
 * The sync and backfill summaries (text and --json) say how many alerts their run raised and how
 * many messages it queued, as `regwatch sync` / `regwatch backfill` print them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorEnv, sampleTaxIds, seedList } from "../helpers/sync.ts";

const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

describe("alert counts in the run summaries", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;

  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 26,
      businesses: 800,
      rateLimit: 200,
      changesPerBusinessPerMonth: 6,
    });
    await seedList(emulator, { name: "suppliers", createdAt: day(20), taxIds: sampleTaxIds(emulator, 40) });
    t = await createTestDatabase();
    for (const digest of [false, true])
      await insertAlertRule(t.db.sql, {
        name: digest ? "daily" : "each",
        lists: [],
        headings: [],
        channel: "notify",
        target: "regwatch_summary",
        digest,
      });
  });
  afterAll(async () => {
    await t?.drop();
    await emulator?.close();
  });

  const env = () => ({ ...emulatorEnv(emulator), DATABASE_URL: t.url });
  const scan = async (runId: number) => {
    const [row] = await t.db.sql<{ alerts: number; messages: number }[]>`
      select (select count(*)::int from regwatch.alerts where run_id = ${runId}) as alerts,
             (select count(*)::int from regwatch.alert_deliveries where run_id = ${runId}) as messages`;
    return row!;
  };

  it("a backfill with --alert-history and a sync say what they raised and queued", async () => {
    const backfill = await runCli(
      ["backfill", "--from", day(20), "--to", day(14), "--alert-history"],
      env(),
      120_000,
    );
    expect(backfill.code).toBe(0);
    const backfillRun = Number(/backfill run (\d+)/.exec(backfill.stdout)![1]);
    const first = await scan(backfillRun);
    expect(first.alerts).toBeGreaterThan(0);
    // One message per alert of "each", one digest for "daily".
    expect(first.messages).toBe(first.alerts / 2 + 1);
    expect(backfill.stdout).toContain(`  alerts raised ${first.alerts}, messages queued ${first.messages}\n`);

    const sync = await runCli(["sync", "--json"], env(), 120_000);
    expect(sync.code).toBe(0);
    const report = JSON.parse(sync.stdout);
    const second = await scan(report.runId);
    expect(second.alerts).toBeGreaterThan(0);
    expect(report.alerts).toEqual({ raised: second.alerts, queued: second.messages });

    const again = await runCli(["sync"], env(), 120_000);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("  alerts raised 0, messages queued 0\n");
  }, 300_000);
});

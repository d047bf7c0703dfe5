/**
 * Every remote list is known: a sync stores the items of every list it covers, managed or not,
 * reading each list's items at most once a day (the registry's day), and not at all for a list
 * reconcile read that day.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireWatch } from "../../src/config.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { runSyncJob } from "../../src/jobs/sync-job.ts";
import { silentLogger } from "../../src/logger.ts";
import { reconcile } from "../../src/reconcile/reconcile.ts";
import { openRegistry } from "../../src/run/open-registry.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, sampleTaxIds, seedList, syncAt } from "../helpers/sync.ts";

describe("items of every remote list", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;
  let theirs: string[];
  let mine: string[];

  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 10,
      businesses: 400,
      now: "2024-06-12T09:00:00+02:00",
      frozenClock: true,
      rateLimit: 200,
    });
    const ids = sampleTaxIds(emulator, 6);
    theirs = ids.slice(0, 3).sort();
    mine = ids.slice(3).sort();
    await seedList(emulator, { name: "theirs", createdAt: "2024-06-01", taxIds: theirs });
    await seedList(emulator, { name: "mine", createdAt: "2024-06-01", taxIds: mine });
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
    await emulator?.close();
  });

  const itemReads = () => emulator.requests().filter((r) => r.endpoint === "GET /v2/lists/:key/items");
  const stored = (listName: string) =>
    t.db.sql<{ taxId: string; readOn: string }[]>`
      select i.tax_id as "taxId", to_char(l.items_read_on, 'YYYY-MM-DD') as "readOn"
      from regwatch.watched_items i join regwatch.watch_lists l using (list_key)
      where l.list_name = ${listName} order by i.tax_id`;

  it("stores the items of a list regwatch does not manage, once a day", async () => {
    const config = emulatorConfig(emulator);
    emulator.resetLog();
    const first = await syncAt(t.db.sql, config, emulator);
    expect(first.status).toBe("ok");
    expect(first.report.listItemsRead).toBe(2);
    expect(itemReads()).toHaveLength(2);
    expect(await stored("theirs")).toEqual(theirs.map((taxId) => ({ taxId, readOn: "2024-06-12" })));

    // The same day again: the lists are read, their items are not.
    emulator.resetLog();
    const again = await syncAt(t.db.sql, config, emulator);
    expect(again.report.listItemsRead).toBe(0);
    expect(itemReads()).toEqual([]);

    // The next day each list's items are read once more, and what changed at the registry shows.
    const theirsKey = emulator.listsSnapshot().find((l) => l.list_name === "theirs")!.list_key;
    const response = await fetch(`${emulator.url}/v2/lists/${theirsKey}/items`, {
      method: "DELETE",
      headers: { "x-api-key": emulator.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ tax_ids: [theirs[0]] }),
    });
    expect(response.status).toBe(200);
    emulator.setClock("2024-06-13T09:00:00+02:00");
    emulator.resetLog();
    const nextDay = await syncAt(t.db.sql, config, emulator);
    expect(nextDay.report.listItemsRead).toBe(2);
    expect(itemReads()).toHaveLength(2);
    expect((await stored("theirs")).map((r) => r.taxId)).toEqual(theirs.slice(1));
  });

  it("does not read again the items of a list reconcile read that day", async () => {
    emulator.setClock("2024-06-14T09:00:00+02:00");
    await t.db.sql`insert into regwatch.desired_lists (list_name) values ('mine')`;
    await t.db.sql`insert into regwatch.desired_items ${t.db.sql(
      mine.map((tax_id) => ({ list_name: "mine", tax_id })),
      "list_name",
      "tax_id",
    )}`;
    const config = emulatorConfig(emulator);
    requireWatch(config);
    const registry = openRegistry(config, silentLogger, t.db.sql);
    try {
      emulator.resetLog();
      const rec = await reconcile(
        { config, log: silentLogger, db: t.db, registry: registry.clients, usage: registry.usage },
        { trigger: "schedule", now: () => emulator.now() },
      );
      expect(rec.status).toBe("in-sync");
      const sync = await runSyncJob(
        {
          sql: t.db.sql,
          config,
          log: silentLogger,
          trigger: "schedule",
          registry,
          lists: rec.lists,
          now: () => emulator.now(),
        },
        { kind: "sync" },
      );
      expect(sync.status).toBe("ok");
      expect(sync.report.listItemsRead).toBe(1);
      const mineKey = emulator.listsSnapshot().find((l) => l.list_name === "mine")!.list_key;
      // Reconcile read "mine"; the sync read only "theirs".
      expect(itemReads().map((r) => r.path.includes(mineKey))).toEqual([true, false]);
      expect(await stored("mine")).toEqual(mine.map((taxId) => ({ taxId, readOn: "2024-06-14" })));
    } finally {
      await registry.close();
    }
  });
});

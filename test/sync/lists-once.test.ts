/**
 * The daemon's job reads the watch lists once: reconcile reads and stores them, and the sync
 * after it covers what reconcile stored (runSyncJob's `lists`) instead of asking again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireWatch } from "../../src/config.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { runSyncJob } from "../../src/jobs/sync-job.ts";
import { silentLogger } from "../../src/logger.ts";
import { reconcile } from "../../src/reconcile/reconcile.ts";
import { openRegistry } from "../../src/run/open-registry.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, sampleTaxIds, seedList } from "../helpers/sync.ts";

describe("one read of the lists per job", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;

  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 9,
      businesses: 400,
      now: "2024-06-12T09:00:00+02:00",
      frozenClock: true,
      rateLimit: 200,
    });
    await seedList(emulator, { name: "kept", createdAt: "2024-06-01", taxIds: sampleTaxIds(emulator, 3) });
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
    await emulator?.close();
  });

  it("reconcile stores the lists it read and the sync after it covers them without asking again", async () => {
    const config = emulatorConfig(emulator);
    requireWatch(config);
    const registry = openRegistry(config, silentLogger, t.db.sql);
    try {
      emulator.resetLog();
      const rec = await reconcile(
        { config, log: silentLogger, db: t.db, registry: registry.clients, usage: registry.usage },
        { trigger: "schedule" },
      );
      expect(rec.lists?.map((l) => l.listName)).toEqual(["kept"]);
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
      expect(sync.report.lists).toBe(1);
      expect(sync.report.windowsDone).toBeGreaterThan(0);
      const listReads = emulator.requests().filter((r) => r.method === "GET" && r.path === "/v2/lists");
      expect(listReads).toHaveLength(1);
    } finally {
      await registry.close();
    }
  });
});

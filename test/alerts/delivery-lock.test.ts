/**
 * Delivery outside the run's lock: a sync whose receiver hangs has released the run lock before
 * it sends, so another run started meanwhile gets the lock (it used to exit 75), and the sync
 * still ends, its pass bounded by the request timeout and the receiver's circuit breaker.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { acquireRunLock } from "../../src/run/lock.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, sampleTaxIds, seedList, syncAt } from "../helpers/sync.ts";
import { SECRET } from "./harness.ts";

const MORNING = "2024-03-10T08:00:00+01:00";

describe("a receiver that hangs", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;
  let server: Server;
  let url: string;
  let onRequest: (() => void) | undefined;
  let requests = 0;

  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 7,
      businesses: 1500,
      now: MORNING,
      frozenClock: true,
      rateLimit: 100,
      changesPerBusinessPerMonth: 3,
    });
    await seedList(emulator, {
      name: "suppliers",
      createdAt: "2024-02-01",
      taxIds: sampleTaxIds(emulator, 8),
    });
    t = await createTestDatabase();
    // Takes every request and never answers.
    server = createServer(() => {
      requests++;
      onRequest?.();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await t?.drop();
    await emulator?.close();
  });

  it("no longer holds the run lock: a run started while it hangs gets the lock, and the sync ends", async () => {
    await insertAlertRule(t.db.sql, {
      name: "everything",
      lists: [],
      headings: [],
      channel: "webhook",
      target: url,
      digest: false,
    });
    const config = emulatorConfig(emulator, {
      REGWATCH_WEBHOOK_SECRET: SECRET,
      REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS: "true",
      REGWATCH_REQUEST_TIMEOUT_MS: "1500",
    });
    let lockWhileSending: Promise<string> | undefined;
    onRequest = () => {
      onRequest = undefined;
      // What `regwatch sync` started now does first: take the run lock without waiting.
      lockWhileSending = acquireRunLock(t.db.sql, { waitSeconds: 0 }).then(
        async (lock) => {
          await lock.release();
          return "acquired";
        },
        (error: Error) => `refused: ${error.message}`,
      );
    };
    const result = await syncAt(t.db.sql, config, emulator, {
      kind: "backfill",
      from: "2024-02-01",
      alertHistory: true,
    });
    expect(result.status).toBe("ok");
    expect(requests).toBeGreaterThan(0);
    expect(await lockWhileSending).toBe("acquired");
    const [row] = await t.db.sql<{ pending: number; attempted: number }[]>`
      select count(*) filter (where status = 'pending')::int as pending,
             count(*) filter (where attempts > 0)::int as attempted
      from regwatch.alert_deliveries`;
    // Nothing was lost: the messages wait for the next pass, none held by a lease.
    expect(row!.pending).toBeGreaterThan(0);
    expect(row!.attempted).toBeGreaterThan(0);
    const [held] = await t.db.sql<{ n: number }[]>`
      select count(*)::int as n from regwatch.alert_deliveries where lease_until is not null`;
    expect(held!.n).toBe(0);
  }, 120_000);
});

/**
 * A fleet survives its pooler dying (issue 48, point 8): two workers run two accounts' jobs through
 * a real PgBouncer in transaction mode; while both jobs call the registry PgBouncer is killed
 * (SIGKILL) and started again on the same port 6 s later. The jobs the dead connections held are
 * failed and tried again (or finish), no run stays `running`, the registry hears from both again
 * (the scenario: pooler-helpers.ts).
 */
import { afterAll, beforeAll, describe, inject, it } from "vitest";
import { addDays, localDateTime } from "../../src/dates.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type EmulatorProcess, startEmulatorProcess } from "../helpers/emulator-process.ts";
import { type Bouncer, startPgBouncer } from "../helpers/pgbouncer.ts";
import { type WorkerProcess, writeTenantsFile } from "./fleet-helpers.ts";
import { jobsSurviveOutage, OUTAGE_ACCOUNTS, SLOW_REGISTRY, stopWorkers } from "./pooler-helpers.ts";

let bouncer: Bouncer;
let emulator: EmulatorProcess;
let t: TestDatabase;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  bouncer = await startPgBouncer(inject("pgServerUrl"));
  const today = localDateTime(new Date(), "Europe/Budapest").date;
  const tenants = writeTenantsFile(OUTAGE_ACCOUNTS, {
    createdAt: addDays(today, -6),
    size: 12,
    firstSeed: 90,
  });
  emulator = await startEmulatorProcess(["--tenants", tenants, ...SLOW_REGISTRY]);
}, 120_000);
afterAll(async () => {
  await stopWorkers(workers);
  await emulator?.stop();
  await bouncer?.stop();
  await t?.drop();
});

describe("a fleet whose PgBouncer is killed and started again", () => {
  it("fails or finishes the jobs the dead connections held, and the work goes on", {
    timeout: 240_000,
  }, async () => {
    await jobsSurviveOutage({
      databaseUrl: bouncer.urlFor(t.name),
      sql: t.db.sql,
      emulator,
      workers,
      outage: async () => {
        await bouncer.kill();
        await new Promise((resolve) => setTimeout(resolve, 6000));
        await bouncer.restart();
      },
    });
  });
});

/**
 * A fleet survives its database restarting behind the pooler (issue 48, point 8): two workers run
 * two accounts' jobs through a real PgBouncer in transaction mode in front of a Postgres of the
 * test's own (the embedded server's binaries, in a folder of the run; the shared test server is
 * never restarted). While both jobs call the registry, Postgres stops (fast shutdown: every
 * session ended) and starts again 6 s later, while PgBouncer stays up. The jobs end, no run stays
 * `running`, the registry hears from both accounts again (the scenario: pooler-helpers.ts).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { addDays, localDateTime } from "../../src/dates.ts";
import { type Database, openDatabase } from "../../src/db/connect.ts";
import { type EmbeddedServer, startEmbedded } from "../../src/db/embedded.ts";
import { type EmulatorProcess, startEmulatorProcess } from "../helpers/emulator-process.ts";
import { type Bouncer, startPgBouncer } from "../helpers/pgbouncer.ts";
import { type WorkerProcess, writeTenantsFile } from "./fleet-helpers.ts";
import { jobsSurviveOutage, OUTAGE_ACCOUNTS, SLOW_REGISTRY, stopWorkers } from "./pooler-helpers.ts";

let dataDir: string;
let server: EmbeddedServer;
let bouncer: Bouncer;
let emulator: EmulatorProcess;
let direct: Database | undefined;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "regwatch-restarted-pg-"));
  server = await startEmbedded(dataDir);
  bouncer = await startPgBouncer(server.url);
  const today = localDateTime(new Date(), "Europe/Budapest").date;
  const tenants = writeTenantsFile(OUTAGE_ACCOUNTS, {
    createdAt: addDays(today, -6),
    size: 12,
    firstSeed: 110,
  });
  emulator = await startEmulatorProcess(["--tenants", tenants, ...SLOW_REGISTRY]);
}, 180_000);
afterAll(async () => {
  await stopWorkers(workers);
  await emulator?.stop();
  await direct?.close();
  await bouncer?.stop();
  await server?.stop();
});

describe("a fleet whose Postgres restarts behind PgBouncer", () => {
  it("fails or finishes the jobs the ended sessions held, and the work goes on", {
    timeout: 240_000,
  }, async () => {
    // The test's own checks go straight to Postgres (its connections come back after the restart).
    direct = await openDatabase({ databaseUrl: server.url, dataDir: "" }, { max: 2 });
    await jobsSurviveOutage({
      databaseUrl: bouncer.urlFor("postgres"),
      sql: direct.sql,
      emulator,
      workers,
      outage: async () => {
        await server.stop();
        await new Promise((resolve) => setTimeout(resolve, 6000));
        server = await startEmbedded(dataDir);
      },
    });
  });
});

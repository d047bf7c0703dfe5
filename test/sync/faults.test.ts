import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultRule, type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { coveredRanges, emulatorConfig, sampleTaxIds, seedList, snapshot, syncAt } from "../helpers/sync.ts";

const MORNING = "2024-03-10T08:00:00+01:00";

async function seededEmulator(faults: FaultRule[] = []): Promise<RunningEmulator> {
  const emulator = await startEmulator({
    seed: 5,
    businesses: 1500,
    now: MORNING,
    frozenClock: true,
    rateLimit: 200,
    faults,
  });
  const ids = sampleTaxIds(emulator, 20);
  await seedList(emulator, { name: "north", createdAt: "2024-01-15", taxIds: ids.slice(0, 12) });
  await seedList(emulator, { name: "south", createdAt: "2024-02-05", taxIds: ids.slice(6, 20) });
  return emulator;
}

const FAULTS: FaultRule[] = [
  { endpoint: "GET /v2/lists/:key/changes", kind: "status", status: 503, probability: 0.25 },
  { endpoint: "GET /v2/lists/:key/changes", kind: "rate-limit", retryAfter: "1", probability: 0.1 },
  { endpoint: "GET /v2/lists/:key/changes", kind: "reset", probability: 0.1 },
  { endpoint: "GET /v2/lists/:key/changes", kind: "malformed", probability: 0.1 },
  { endpoint: "GET /files", kind: "status", status: 500, probability: 0.2 },
  { endpoint: "GET /files", kind: "truncate", probability: 0.1 },
  { endpoint: "GET /files", kind: "malformed", probability: 0.1 },
  { endpoint: "GET /files", kind: "reset", probability: 0.05 },
];

describe("sync under injected faults", () => {
  let clean: { emulator: RunningEmulator; t: TestDatabase };
  let faulty: { emulator: RunningEmulator; t: TestDatabase };

  beforeAll(async () => {
    clean = { emulator: await seededEmulator(), t: await createTestDatabase() };
    faulty = { emulator: await seededEmulator(FAULTS), t: await createTestDatabase() };
  });
  afterAll(async () => {
    for (const side of [clean, faulty]) {
      await side?.t.drop();
      await side?.emulator.close();
    }
  });

  it("ends partial where retries ran out, a rerun completes it, and the tables equal a fault-free run", async () => {
    const cleanRun = await syncAt(clean.t.db.sql, emulatorConfig(clean.emulator), clean.emulator);
    expect(cleanRun.status).toBe("ok");

    // Two attempts per request: some requests fail for good in the first pass.
    const config = emulatorConfig(faulty.emulator, { REGWATCH_MAX_ATTEMPTS: "2" });
    const statuses: string[] = [];
    for (let i = 0; i < 12 && statuses.at(-1) !== "ok"; i++) {
      const run = await syncAt(faulty.t.db.sql, config, faulty.emulator);
      statuses.push(run.status);
    }
    expect(statuses[0]).toBe("partial");
    expect(statuses.at(-1)).toBe("ok");
    const runs = await faulty.t.db.sql`select status from regwatch.runs order by id`;
    expect(runs.map((r) => r.status)).toEqual(statuses);

    const kinds = new Set(
      faulty.emulator
        .requests()
        .map((r) => r.fault)
        .filter(Boolean),
    );
    expect([...kinds].sort()).toEqual(["malformed", "rate-limit", "reset", "status", "truncate"]);

    // Coverage rows are the windows each run happened to ask; the days they cover must agree.
    expect(await coveredRanges(faulty.t.db.sql)).toEqual(await coveredRanges(clean.t.db.sql));
    const { coverage: _c1, ...expected } = await snapshot(clean.t.db.sql);
    const { coverage: _c2, ...actual } = await snapshot(faulty.t.db.sql);
    expect(actual.changes.length).toBeGreaterThan(20);
    // The twins differ only in their port; list keys agree (same seed, same creation order).
    const portless = (snap: unknown, origin: string) =>
      JSON.parse(JSON.stringify(snap).replaceAll(origin, "ORIGIN"));
    expect(portless(actual, faulty.emulator.url)).toEqual(portless(expected, clean.emulator.url));
  });
});

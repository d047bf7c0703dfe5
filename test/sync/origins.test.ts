import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, sampleTaxIds, seedList, syncAt } from "../helpers/sync.ts";

describe("change files on another origin", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;

  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 3,
      businesses: 800,
      now: "2024-05-02T09:00:00+02:00",
      frozenClock: true,
      rateLimit: 200,
      separateFileOrigin: true,
    });
    await seedList(emulator, {
      name: "partners",
      createdAt: "2024-04-10",
      taxIds: sampleTaxIds(emulator, 10),
    });
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
    await emulator?.close();
  });

  it("refuses and records paths outside REGWATCH_FILE_ORIGINS without requesting them", async () => {
    expect(new URL(emulator.fileBaseUrl).origin).not.toBe(emulator.url);
    const result = await syncAt(t.db.sql, emulatorConfig(emulator), emulator);
    expect(result.status).toBe("ok");
    const files = await t.db.sql`select status, last_error, attempts from regwatch.change_files`;
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      expect(f.status).toBe("refused");
      expect(f.last_error).toContain("REGWATCH_FILE_ORIGINS");
      expect(f.attempts).toBe(0);
    }
    expect(emulator.requests().filter((r) => r.origin === "files")).toHaveLength(0);
  });

  it("fetches them once the origin is allowed, without sending the API key there", async () => {
    await t.db.sql`update regwatch.change_files set status = 'pending'`;
    const config = emulatorConfig(emulator, {
      REGWATCH_FILE_ORIGINS: `${emulator.url},${new URL(emulator.fileBaseUrl).origin}`,
    });
    const result = await syncAt(t.db.sql, config, emulator);
    expect(result.status).toBe("ok");
    const statuses = await t.db.sql`select distinct status from regwatch.change_files`;
    expect(statuses.map((s) => s.status)).toEqual(["fetched"]);
    const fileRequests = emulator.requests().filter((r) => r.origin === "files");
    expect(fileRequests.length).toBeGreaterThan(0);
    expect(fileRequests.every((r) => !r.keyValid)).toBe(true);
  });
});

describe("the data-load hour", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;

  beforeAll(async () => {
    // 06:30 in Budapest: yesterday is not complete yet.
    emulator = await startEmulator({
      seed: 4,
      businesses: 500,
      now: "2024-05-02T06:30:00+02:00",
      frozenClock: true,
      rateLimit: 200,
    });
    await seedList(emulator, { name: "early", createdAt: "2024-04-20", taxIds: sampleTaxIds(emulator, 5) });
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
    await emulator?.close();
  });

  it("asks for nothing after the day before yesterday before 07:00", async () => {
    const result = await syncAt(t.db.sql, emulatorConfig(emulator), emulator);
    expect(result.status).toBe("ok");
    const ends = emulator
      .requests()
      .filter((r) => r.endpoint === "GET /v2/lists/:key/changes")
      .map((r) => r.query.end_date!);
    expect(ends.length).toBeGreaterThan(0);
    expect(ends.every((end) => end <= "2024-04-30")).toBe(true);
    expect(ends).toContain("2024-04-30");
  });
});

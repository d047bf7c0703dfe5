import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { daysBetween } from "../../src/dates.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { coveredRanges, emulatorConfig, sampleTaxIds, seedList, snapshot, syncAt } from "../helpers/sync.ts";

// 08:00 in Budapest on 10 March: 9 March is the last complete day.
const MORNING = "2024-03-10T08:00:00+01:00";
const NEXT_MORNING = "2024-03-11T08:00:00+01:00";

describe("sync against the emulator", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;
  let listA: string;
  let listB: string;
  let shared: string[];

  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 11,
      businesses: 2000,
      now: MORNING,
      frozenClock: true,
      rateLimit: 100,
    });
    const ids = sampleTaxIds(emulator, 24);
    shared = ids.slice(8, 16);
    await seedList(emulator, { name: "suppliers", createdAt: "2024-01-20", taxIds: ids.slice(0, 16) });
    await seedList(emulator, { name: "customers", createdAt: "2024-02-01", taxIds: ids.slice(8, 24) });
    const lists = emulator.listsSnapshot();
    listA = lists.find((l) => l.list_name === "suppliers")!.list_key;
    listB = lists.find((l) => l.list_name === "customers")!.list_key;
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
    await emulator?.close();
  });

  it("covers every list from its creation to the last complete day, asking nothing it must not", async () => {
    const config = emulatorConfig(emulator);
    const result = await syncAt(t.db.sql, config, emulator);
    expect(result.error).toBeUndefined();
    expect(result.report?.errors).toEqual([]);
    expect(result.status).toBe("ok");

    expect(await coveredRanges(t.db.sql)).toEqual({
      [listA]: ["2024-01-20..2024-03-09"],
      [listB]: ["2024-02-01..2024-03-09"],
    });
    const changeRequests = emulator.requests().filter((r) => r.endpoint === "GET /v2/lists/:key/changes");
    for (const r of changeRequests) {
      const from = r.query.start_date!;
      const to = r.query.end_date!;
      expect(daysBetween(from, to) + 1).toBeLessThanOrEqual(7);
      expect(to <= "2024-03-09").toBe(true);
    }
    // Fewest windows: ceil(days / 7) per list.
    expect(changeRequests.filter((r) => r.path.includes(listA))).toHaveLength(Math.ceil(50 / 7));
    expect(changeRequests.filter((r) => r.path.includes(listB))).toHaveLength(Math.ceil(38 / 7));
    // (Pacing against the server's own count is checked with the emulator in another process,
    // in rate-limit.test.ts: here both share one event loop, which bunches arrivals.)
  });

  it("stores each change once, with a source per list that reported it, and every file once", async () => {
    const snap = await snapshot(t.db.sql);
    expect(snap.changes.length).toBeGreaterThan(20);
    const identities = new Set(
      snap.changes.map((c) => `${c.tax_id}|${c.change_date}|${c.chapter}|${c.path}`),
    );
    expect(identities.size).toBe(snap.changes.length);

    const sharedSince = snap.sources.filter(
      (s) => shared.includes(s.tax_id as string) && (s.change_date as string) >= "2024-02-03",
    );
    const byChange = new Map<string, Set<string>>();
    for (const s of sharedSince) {
      const key = `${s.tax_id}|${s.change_date}|${s.chapter}|${s.path}`;
      byChange.set(key, (byChange.get(key) ?? new Set()).add(s.list_key as string));
    }
    expect(byChange.size).toBeGreaterThan(0);
    for (const lists of byChange.values()) expect([...lists].sort()).toEqual([listA, listB].sort());

    expect(snap.files.every((f) => f.status === "fetched" && f.body_json !== null)).toBe(true);
    expect(new Set(snap.files.map((f) => f.path))).toEqual(new Set(snap.changes.map((c) => c.path)));
    const served = emulator.requests().filter((r) => r.endpoint === "GET /files" && r.status === 200);
    expect(served).toHaveLength(snap.files.length);
  });

  it("next morning asks only the lookback window per list and fetches no file twice", async () => {
    const before = await snapshot(t.db.sql);
    emulator.setClock(NEXT_MORNING);
    emulator.resetLog();
    const result = await syncAt(t.db.sql, emulatorConfig(emulator), emulator);
    expect(result.status).toBe("ok");

    const changeRequests = emulator.requests().filter((r) => r.endpoint === "GET /v2/lists/:key/changes");
    expect(changeRequests.map((r) => [r.path, r.query.start_date, r.query.end_date]).sort()).toEqual(
      [listA, listB].map((key) => [`/v2/lists/${key}/changes`, "2024-03-04", "2024-03-10"]).sort(),
    );
    const after = await snapshot(t.db.sql);
    const known = new Set(before.files.map((f) => f.path));
    const fetchedNow = emulator
      .requests()
      .filter((r) => r.endpoint === "GET /files")
      .map((r) => r.path);
    for (const path of fetchedNow) expect([...known].some((p) => p.endsWith(path))).toBe(false);
    expect(after.changes.length).toBeGreaterThanOrEqual(before.changes.length);
    // Rows seen before are unchanged.
    expect(after.changes.filter((c) => c.change_date <= "2024-03-09")).toEqual(before.changes);
  });

  it("a rerun on the same morning asks nothing and changes nothing", async () => {
    const before = await snapshot(t.db.sql);
    emulator.resetLog();
    const result = await syncAt(t.db.sql, emulatorConfig(emulator), emulator);
    expect(result.status).toBe("ok");
    expect(emulator.requests().map((r) => r.endpoint)).toEqual(["GET /v2/lists"]);
    expect(await snapshot(t.db.sql)).toEqual(before);
  });

  it("overlapping backfills with --refetch leave the tables as they were", async () => {
    const before = await snapshot(t.db.sql);
    const config = emulatorConfig(emulator);
    await syncAt(t.db.sql, config, emulator, {
      kind: "backfill",
      from: "2024-02-10",
      to: "2024-02-25",
      refetch: true,
    });
    await syncAt(t.db.sql, config, emulator, {
      kind: "backfill",
      from: "2024-02-14",
      to: "2024-03-01",
      refetch: true,
    });
    const after = await snapshot(t.db.sql);
    expect(after.changes).toEqual(before.changes);
    expect(after.sources).toEqual(before.sources);
    expect(after.files).toEqual(before.files);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRegistry } from "../../src/api/registry.ts";
import { requireWatch } from "../../src/config.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { silentLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, sampleTaxIds, seedList, syncAt } from "../helpers/sync.ts";
import { waitUntil } from "../helpers/wait.ts";

describe("list refresh", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;

  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 8,
      businesses: 800,
      now: "2024-06-12T09:00:00+02:00",
      frozenClock: true,
      rateLimit: 200,
    });
    const ids = sampleTaxIds(emulator, 8);
    await seedList(emulator, { name: "kept", createdAt: "2024-05-20", taxIds: ids.slice(0, 4) });
    await seedList(emulator, { name: "dropped", createdAt: "2024-05-20", taxIds: ids.slice(4) });
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
    await emulator?.close();
  });

  it("marks a list that disappeared, keeps its history, and stops syncing it", async () => {
    const config = emulatorConfig(emulator);
    expect((await syncAt(t.db.sql, config, emulator)).status).toBe("ok");
    const dropped = emulator.listsSnapshot().find((l) => l.list_name === "dropped")!;
    const [before] = await t.db
      .sql`select count(*)::int as n from regwatch.change_sources where list_key = ${dropped.list_key}`;
    expect(before!.n).toBeGreaterThan(0);

    const response = await fetch(`${emulator.url}/v2/lists/${dropped.list_key}`, {
      method: "DELETE",
      headers: { "x-api-key": emulator.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ list_name: "dropped" }),
    });
    expect(response.status).toBe(204);
    emulator.setClock("2024-06-13T09:00:00+02:00");
    emulator.resetLog();
    expect((await syncAt(t.db.sql, config, emulator)).status).toBe("ok");

    const lists = await t.db
      .sql`select list_name, deleted_at is not null as deleted from regwatch.watch_lists order by list_name`;
    expect(lists.map((l) => [l.list_name, l.deleted])).toEqual([
      ["dropped", true],
      ["kept", false],
    ]);
    const [after] = await t.db
      .sql`select count(*)::int as n from regwatch.change_sources where list_key = ${dropped.list_key}`;
    expect(after!.n).toBe(before!.n);
    expect(emulator.requests().some((r) => r.path.includes(dropped.list_key))).toBe(false);
  });

  it("keeps fields the document does not name in changes.raw", async () => {
    const rows = await t.db.sql<{ raw: Record<string, unknown> }[]>`select raw from regwatch.changes limit 5`;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.raw).toHaveProperty("change_type");
  });

  it("waits as long as an HTTP-date Retry-After asks before trying again", async () => {
    emulator.setFaults([
      { endpoint: "GET /v2/lists", kind: "rate-limit", retryAfter: "date:2", probability: 1, times: 1 },
    ]);
    emulator.resetLog();
    const config = emulatorConfig(emulator);
    requireWatch(config);
    const registry = createRegistry(config, { log: silentLogger });
    try {
      await registry.watch.lists();
    } finally {
      await registry.close();
      emulator.setFaults([]);
    }
    const tries = emulator.requests().filter((r) => r.endpoint === "GET /v2/lists");
    expect(tries.map((r) => r.status)).toEqual([429, 200]);
    // An HTTP date has whole seconds: "2 s ahead" is at least one full second away.
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(1000);
  });

  it("gives up on a request that hangs past REGWATCH_REQUEST_TIMEOUT_MS and tries again", async () => {
    emulator.setFaults([
      { endpoint: "GET /v2/lists", kind: "delay", delayMs: 1500, probability: 1, times: 1 },
    ]);
    emulator.resetLog();
    const config = emulatorConfig(emulator, { REGWATCH_REQUEST_TIMEOUT_MS: "300" });
    requireWatch(config);
    const registry = createRegistry(config, { log: silentLogger });
    try {
      const { lists } = await registry.watch.lists();
      expect(lists.map((l) => l.list_name).sort()).toEqual(["kept"]);
    } finally {
      await registry.close();
      emulator.setFaults([]);
    }
    // The emulator logs a request when it has answered: wait for the abandoned one to finish.
    const tries = await waitUntil(
      () => {
        const seen = emulator.requests().filter((r) => r.endpoint === "GET /v2/lists");
        return seen.length >= 2 && seen;
      },
      { what: "both list requests logged" },
    );
    expect(tries.map((r) => r.fault ?? "none").sort()).toEqual(["delay", "none"]);
  });
});

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { isValidTaxId } from "../../src/taxid.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  clearState,
  desireList,
  type Harness,
  mutatingRequests,
  outcomes,
  remoteItems,
  startHarness,
  undesire,
  unknownTaxId,
  watchableTaxIds,
} from "./harness.ts";

let test: TestDatabase;
let harness: Harness | undefined;

beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(async () => {
  await test.drop();
});
beforeEach(async () => {
  await clearState(test.db.sql);
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("reconcile against the emulator", () => {
  it("builds three lists from an empty registry, recording invalid and excess ids, then sends nothing more", async () => {
    harness = await startHarness(test);
    const { emulator } = harness;
    const { sql } = test.db;
    const valid = watchableTaxIds(emulator, 2090);
    const good = valid[0]!;
    const badCheck = Array.from({ length: 5 }, (_, i) => {
      const id = valid[i + 1]!;
      return `${id.slice(0, 7)}${(Number(id[7]) + 1) % 10}`;
    });
    const badFormat = ["1234567", "123456789", "abcdefgh", "1234-567", ""];
    const unknown = unknownTaxId(1);
    await desireList(sql, "big", [...valid, ...badCheck, ...badFormat]);
    await desireList(sql, "medium", valid.slice(0, 600));
    await desireList(sql, "small", [...valid.slice(1000, 1019), unknown]);

    const first = await harness.run();
    expect(first.status).toBe("applied");
    expect(first.exitCode).toBe(0);

    // What the registry now holds.
    expect(remoteItems(emulator, "big")).toHaveLength(2000);
    expect(remoteItems(emulator, "medium")).toEqual([...valid.slice(0, 600)].sort());
    expect(remoteItems(emulator, "small")).toEqual([...valid.slice(1000, 1019)].sort());
    expect(remoteItems(emulator, "big")).toContain(good);

    // No request carried an invalid id; bulk requests were the fewest possible.
    const sent = emulator.requests().flatMap((r) => r.taxIds ?? []);
    expect(sent.every(isValidTaxId)).toBe(true);
    const byEndpoint = countBy(mutatingRequests(emulator).map((r) => r.endpoint));
    expect(byEndpoint).toEqual({ "POST /v2/lists": 3, "POST /v2/lists/:key/items": 4 + 2 + 1 });
    expect(first.requests.writes).toBe(10);

    // Outcomes: invalid as 422, beyond the cap as 429, the unknown id as the registry's 404.
    const rows = await outcomes(sql);
    const big = rows.filter((r) => r.listName === "big");
    const invalid = big.filter((r) => r.code === 422);
    expect(invalid.map((r) => r.taxId).sort()).toEqual([...badCheck, ...badFormat].sort());
    expect(invalid.every((r) => r.message.startsWith("not sent:"))).toBe(true);
    const full = big.filter((r) => r.code === 429);
    expect(full).toHaveLength(90);
    expect(full[0]!.message).toMatch(/full/);
    expect(full.map((r) => r.taxId).sort()).toEqual(valid.slice(2000).sort());
    expect(big.filter((r) => r.code === null)).toHaveLength(2000);
    expect(rows.find((r) => r.taxId === unknown)).toMatchObject({ listName: "small", code: 404 });
    expect(rows.filter((r) => r.listName === "small" && r.code === null)).toHaveLength(19);

    // The stored copy of the remote state was read back.
    const [stored] = await sql<{ n: number }[]>`select count(*)::int as n from regwatch.watched_items`;
    expect(stored!.n).toBe(2000 + 600 + 19);
    const [run] = await sql<{ status: string; stats: Record<string, number> }[]>`
      select status, stats from regwatch.runs where id = ${first.runId}`;
    expect(run).toMatchObject({
      status: "ok",
      stats: { added: 2619, invalid: 10, overCapacity: 90, addRefused: 1 },
    });

    // The second run only reads: the list of lists and the items of each owned list.
    emulator.resetLog();
    const second = await harness.run();
    expect(second.status).toBe("in-sync");
    expect(second.exitCode).toBe(0);
    expect(mutatingRequests(emulator)).toEqual([]);
    expect(emulator.requests()).toHaveLength(4);
    expect(second.plan?.totals.heldBack).toBe(1);
  });

  it("prunes only lists with prune on and never touches a list it does not own", async () => {
    harness = await startHarness(test, {
      lists: [{ name: "foreign", createdAt: "2025-01-10", size: 5 }],
    });
    const { emulator } = harness;
    const { sql } = test.db;
    const ids = watchableTaxIds(emulator, 10);
    const foreignBefore = remoteItems(emulator, "foreign");
    await desireList(sql, "pruned", ids.slice(0, 5), true);
    await desireList(sql, "kept", ids.slice(5, 10), false);
    expect((await harness.run()).status).toBe("applied");

    await undesire(sql, "pruned", ids.slice(0, 2));
    await undesire(sql, "kept", ids.slice(5, 7));
    emulator.resetLog();
    const report = await harness.run();
    expect(report.status).toBe("applied");
    expect(remoteItems(emulator, "pruned")).toEqual(ids.slice(2, 5));
    expect(remoteItems(emulator, "kept")).toEqual(ids.slice(5, 10));
    expect(remoteItems(emulator, "foreign")).toEqual(foreignBefore);

    const foreignKey = emulator.listsSnapshot().find((l) => l.list_name === "foreign")!.list_key;
    expect(emulator.requests().filter((r) => r.path.includes(foreignKey))).toEqual([]);
    const mutations = mutatingRequests(emulator);
    expect(mutations.map((r) => [r.endpoint, r.taxIds])).toEqual([
      ["DELETE /v2/lists/:key/items", ids.slice(0, 2)],
    ]);
    const removed = (await outcomes(sql)).filter((r) => r.op === "remove");
    expect(removed.map((r) => [r.taxId, r.code])).toEqual([
      [ids[0], null],
      [ids[1], null],
    ]);
  });

  it("uses the oldest of two remote lists with the desired name and says so", async () => {
    harness = await startHarness(test, {
      lists: [
        { name: "dup", createdAt: "2025-02-01", size: 2 },
        { name: "dup", createdAt: "2025-01-01", size: 3 },
      ],
    });
    const { emulator } = harness;
    const snapshot = emulator.listsSnapshot();
    const older = snapshot.find((l) => l.created_at === "2025-01-01")!;
    const newer = snapshot.find((l) => l.created_at === "2025-02-01")!;
    const keep = older.items.map((i) => i.tax_id);
    await desireList(test.db.sql, "dup", keep);
    const report = await harness.run();
    expect(report.status).toBe("in-sync");
    expect(report.plan?.lists[0]?.listKey).toBe(older.list_key);
    expect(report.plan?.notes[0]).toContain(`using ${older.list_key}`);
    expect(emulator.requests().filter((r) => r.path.includes(newer.list_key))).toEqual([]);
  });

  it("refuses a mass removal and the emptying of a list before sending anything", async () => {
    harness = await startHarness(test);
    const { emulator } = harness;
    const { sql } = test.db;
    const ids = watchableTaxIds(emulator, 150);
    await desireList(sql, "mass", ids);
    await desireList(sql, "drained", ids.slice(0, 3));
    expect((await harness.run()).status).toBe("applied");

    await undesire(sql, "mass", ids.slice(10));
    await undesire(sql, "drained", ids.slice(0, 3));
    emulator.resetLog();
    const refused = await harness.run();
    expect(refused.status).toBe("refused");
    expect(refused.exitCode).toBe(1);
    expect(refused.problems.join("\n")).toContain("--max-removals 143");
    expect(refused.problems.join("\n")).toContain("--allow-empty");
    expect(mutatingRequests(emulator)).toEqual([]);

    const stillRefused = await harness.run({ maxRemovals: 143 });
    expect(stillRefused.problems).toEqual([expect.stringContaining('"drained"')]);
    const allowed = await harness.run({ maxRemovals: 143, allowEmpty: true });
    expect(allowed.status).toBe("applied");
    expect(remoteItems(emulator, "mass")).toEqual(ids.slice(0, 10));
    expect(remoteItems(emulator, "drained")).toEqual([]);
  });

  it("ends partial when bulk requests keep failing, and the next run converges", async () => {
    harness = await startHarness(
      test,
      { faults: [{ endpoint: "POST /v2/lists/:key/items", kind: "status", status: 503, probability: 0.6 }] },
      { REGWATCH_MAX_ATTEMPTS: "2", REGWATCH_BULK_CHUNK_SIZE: "25" },
    );
    const { emulator } = harness;
    const { sql } = test.db;
    const ids = watchableTaxIds(emulator, 300);
    await desireList(sql, "flaky", ids);

    const first = await harness.run();
    expect(first.status).toBe("partial");
    expect(first.exitCode).toBe(3);
    const failedChunks = first.results[0]!.requests.failed;
    expect(failedChunks).toBeGreaterThan(0);
    expect(first.results[0]!.add.unanswered).toBe(failedChunks * 25);
    const unanswered = (await outcomes(sql)).filter((r) => r.code === 0);
    expect(unanswered).toHaveLength(failedChunks * 25);
    expect(unanswered[0]!.message).toMatch(/^request failed: POST \/v2\/lists\/:key\/items answered 503/);
    const [run] = await sql<{ status: string }[]>`select status from regwatch.runs where id = ${first.runId}`;
    expect(run!.status).toBe("partial");

    emulator.setFaults([]);
    const second = await harness.run();
    expect(second.status).toBe("applied");
    expect(second.plan?.totals.add).toBe(failedChunks * 25);
    expect(remoteItems(emulator, "flaky")).toEqual(ids);
    expect((await outcomes(sql)).every((r) => r.code === null)).toBe(true);
    expect((await harness.run()).status).toBe("in-sync");
  });
});

function countBy(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[v] = (counts[v] ?? 0) + 1;
  return counts;
}

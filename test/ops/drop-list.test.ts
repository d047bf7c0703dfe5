/**
 * Issue 14: `regwatch watch drop-list` removes a desired list; the next reconcile deletes its
 * remote list only with --allow-delete-lists (its items counting toward --max-removals), shows
 * the deletion in a dry run, leaves it in place otherwise, and never deletes a list regwatch did
 * not own (one never desired, or a same-named duplicate it left untouched).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planDrops } from "../../src/reconcile/drop-plan.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  clearState,
  desireList,
  type Harness,
  mutatingRequests,
  startHarness,
  watchableTaxIds,
} from "../reconcile/harness.ts";

describe("planDrops", () => {
  const remote = [
    { listKey: "wl_a", listName: "gone-soon", createdAt: "2024-01-01" },
    { listKey: "wl_b", listName: "gone-soon", createdAt: "2024-02-01" },
    { listKey: "wl_c", listName: "other", createdAt: "2024-01-01" },
  ];
  const items = new Map([
    ["wl_a", ["11111111", "22222222"]],
    ["wl_b", ["33333333"]],
  ]);

  it("deletes the recorded list only, or the oldest of the name when none was recorded", () => {
    expect(planDrops([{ listName: "gone-soon", listKey: "wl_b" }], remote, items, true)).toEqual({
      delete: [{ listName: "gone-soon", listKey: "wl_b", items: 1 }],
      leftInPlace: [],
      gone: [],
    });
    expect(planDrops([{ listName: "gone-soon", listKey: null }], remote, items, true).delete).toEqual([
      { listName: "gone-soon", listKey: "wl_a", items: 2 },
    ]);
  });

  it("leaves lists in place without the flag and reports lists already gone", () => {
    const plan = planDrops(
      [
        { listName: "gone-soon", listKey: "wl_a" },
        { listName: "vanished", listKey: "wl_x" },
      ],
      remote,
      items,
      false,
    );
    expect(plan.delete).toEqual([]);
    expect(plan.leftInPlace).toEqual([{ listName: "gone-soon", listKey: "wl_a", items: 2 }]);
    expect(plan.gone).toEqual(["vanished"]);
  });
});

describe("regwatch watch drop-list and reconcile --allow-delete-lists", () => {
  let test: TestDatabase;
  let harness: Harness;
  beforeAll(async () => {
    test = await createTestDatabase();
    harness = await startHarness(test);
  });
  afterAll(async () => {
    await harness.close();
    await test.drop();
  });

  it("drops locally, leaves the remote list in place, then deletes it under the removal guard", async () => {
    const { emulator, env } = harness;
    const { sql } = test.db;
    await clearState(sql);
    const ids = watchableTaxIds(emulator, 5);
    await desireList(sql, "keep", ids.slice(0, 1));
    await desireList(sql, "old", ids.slice(1, 4));
    expect((await harness.run()).status).toBe("applied");
    const [old] = emulator.listsSnapshot().filter((l) => l.list_name === "old");

    const dropped = await runCli(["watch", "drop-list", "old"], env);
    expect(dropped.stderr).toBe("");
    expect(dropped.code).toBe(0);
    expect(dropped.stdout).toContain(`list "old" (${old!.list_key}) dropped with its 3 desired item(s)`);
    const desired = await sql`select list_name from regwatch.desired_lists order by 1`;
    expect(desired.map((r) => r.list_name)).toEqual(["keep"]);
    expect(await sql`select * from regwatch.desired_items where list_name = 'old'`).toHaveLength(0);

    // Lists someone else made on the same account, one of them named like the dropped one: regwatch
    // never owned them, so they are never deleted.
    for (const name of ["foreign", "old"]) {
      const made = await fetch(`${emulator.url}/v2/lists`, {
        method: "POST",
        headers: { "x-api-key": emulator.apiKey, "content-type": "application/json" },
        body: JSON.stringify({ list_name: name }),
      });
      expect(made.status).toBeLessThan(300);
    }

    // Without the flag: left in place, said so, nothing sent.
    const before = mutatingRequests(emulator).length;
    const plain = await runCli(["reconcile"], env);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain(`list "old" (${old!.list_key}): left in place, dropped locally`);
    expect(mutatingRequests(emulator)).toHaveLength(before);

    // The dry run shows the deletion; its 3 items count toward --max-removals.
    const dry = await runCli(["reconcile", "--dry-run", "--allow-delete-lists"], env);
    expect(dry.code).toBe(2);
    expect(dry.stdout).toContain(
      `- list "old" (${old!.list_key})  dropped: delete the list and its 3 item(s)`,
    );
    const guarded = await runCli(["reconcile", "--allow-delete-lists", "--max-removals", "2"], env);
    expect(guarded.code).toBe(1);
    expect(guarded.stderr).toContain("removes 3 items (3 of them by deleting 1 dropped list(s))");
    expect(guarded.stderr).toContain("--max-removals 3");
    expect(mutatingRequests(emulator)).toHaveLength(before);

    const applied = await runCli(["reconcile", "--allow-delete-lists"], env);
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain("=> list deleted");
    const deletes = mutatingRequests(emulator).filter((r) => r.method === "DELETE");
    expect(deletes.map((r) => r.path)).toEqual([`/v2/lists/${old!.list_key}`]);
    expect(emulator.listsSnapshot().map((l) => l.list_key)).not.toContain(old!.list_key);
    expect(
      emulator
        .listsSnapshot()
        .map((l) => l.list_name)
        .sort(),
    ).toEqual(["foreign", "keep", "old"]);
    const [row] = await sql`select list_key, deleted_at is not null as deleted from regwatch.dropped_lists`;
    expect(row).toEqual({ list_key: old!.list_key, deleted: true });

    // Nothing left to delete: the next run is in sync and sends nothing.
    const after = mutatingRequests(emulator).length;
    const again = await runCli(["reconcile", "--allow-delete-lists"], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("in sync");
    expect(mutatingRequests(emulator)).toHaveLength(after);
  }, 180_000);

  it("never deletes a list that was not desired, and cancels a drop when the list is desired again", async () => {
    const { emulator, env } = harness;
    const { sql } = test.db;
    await clearState(sql);
    await sql`truncate regwatch.dropped_lists`;
    const ids = watchableTaxIds(emulator, 3);
    await desireList(sql, "again", ids.slice(0, 1));
    expect((await harness.run()).status).toBe("applied");

    const unknown = await runCli(["watch", "drop-list", "never-desired"], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('there is no desired list "never-desired"');

    expect((await runCli(["watch", "drop-list", "again"], env)).code).toBe(0);
    expect((await runCli(["watch", "add", "--list", "again", "--tax-id", ids[1]!], env)).code).toBe(0);
    const before = mutatingRequests(emulator).filter(
      (r) => r.method === "DELETE" && !r.path.endsWith("/items"),
    );
    const run = await harness.run({ allowDeleteLists: true });
    expect(run.deletions).toEqual([]);
    expect(run.plan?.drops?.delete).toEqual([]);
    const after = mutatingRequests(emulator).filter(
      (r) => r.method === "DELETE" && !r.path.endsWith("/items"),
    );
    expect(after).toHaveLength(before.length);
    expect(emulator.listsSnapshot().map((l) => l.list_name)).toContain("again");
  }, 180_000);
});

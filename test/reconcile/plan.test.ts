import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { translatorFor } from "../../src/i18n/messages.ts";
import { saidIn } from "../../src/i18n/said-words.ts";
import { checkDesiredLists } from "../../src/reconcile/desired-rows.ts";
import {
  chooseRemoteList,
  chunk,
  type DesiredList,
  guardProblems,
  hasChanges,
  type PlanInput,
  planReconcile,
  type RemoteList,
} from "../../src/reconcile/plan.ts";
import { checkDigit } from "../../src/taxid.ts";

/** A well-formed tax id built from a number (its check digit computed). */
function taxId(n: number): string {
  const seven = String(1_000_000 + n).padStart(7, "0");
  return `${seven}${checkDigit(seven)}`;
}

const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => taxId(from + i));

/** Plan input where regwatch asked for everything on the remote lists (`managed` says otherwise). */
function input(
  desired: DesiredList[],
  remote: Array<RemoteList & { items?: string[]; managed?: string[] }> = [],
  heldBack?: PlanInput["heldBack"],
): PlanInput {
  return {
    desired,
    remoteLists: remote.map(({ items: _, managed: __, ...list }) => list),
    remoteItems: new Map(remote.map((l) => [l.listKey, l.items ?? []])),
    managedItems: new Map(remote.map((l) => [l.listKey, new Set(l.managed ?? l.items ?? [])])),
    heldBack,
  };
}

describe("reconcile plan", () => {
  it("creates a missing list and adds every valid desired item", () => {
    const plan = planReconcile(input([{ listName: "a", prune: true, taxIds: ids(0, 3) }]), {
      chunkSize: 500,
    });
    expect(plan.lists).toHaveLength(1);
    expect(plan.lists[0]).toMatchObject({ listName: "a", listKey: null, add: ids(0, 3), remove: [] });
    expect(plan.totals).toMatchObject({ create: 1, add: 3, remove: 0, writeRequests: 2 });
    expect(hasChanges(plan)).toBe(true);
  });

  it("is empty when remote matches desired", () => {
    const plan = planReconcile(
      input(
        [{ listName: "a", prune: true, taxIds: ids(0, 3) }],
        [{ listKey: "k", listName: "a", createdAt: "2024-01-01", items: ids(0, 3).reverse() }],
      ),
      { chunkSize: 500 },
    );
    expect(hasChanges(plan)).toBe(false);
    expect(plan.totals.writeRequests).toBe(0);
  });

  it("removes undesired items only when prune is on", () => {
    const remote = [{ listKey: "k", listName: "a", createdAt: "2024-01-01", items: ids(0, 4) }];
    const pruned = planReconcile(input([{ listName: "a", prune: true, taxIds: ids(0, 2) }], remote), {
      chunkSize: 500,
    });
    expect(pruned.lists[0]!.remove).toEqual(ids(2, 2));
    const kept = planReconcile(input([{ listName: "a", prune: false, taxIds: ids(0, 2) }], remote), {
      chunkSize: 500,
    });
    expect(kept.lists[0]!.remove).toEqual([]);
    expect(kept.lists[0]!.keptUndesired).toBe(2);
  });

  it("never plans anything for lists that are not desired", () => {
    const plan = planReconcile(
      input(
        [{ listName: "mine", prune: true, taxIds: [] }],
        [{ listKey: "x", listName: "theirs", createdAt: "2024-01-01", items: ids(0, 5) }],
      ),
      { chunkSize: 500 },
    );
    expect(plan.lists.map((l) => l.listName)).toEqual(["mine"]);
    expect(plan.totals.remove).toBe(0);
  });

  it("records invalid tax ids as 422 and never plans to send them", () => {
    const good = taxId(7);
    const badCheck = `${good.slice(0, 7)}${(Number(good[7]) + 1) % 10}`;
    const plan = planReconcile(
      input([{ listName: "a", prune: true, taxIds: [good, badCheck, "123", "abcdefgh"] }]),
      {
        chunkSize: 500,
      },
    );
    const list = plan.lists[0]!;
    expect(list.add).toEqual([good]);
    // Rows of no tax-id shape are refused as read, before the check digits of the rest are judged.
    expect(list.invalid.map((r) => [r.taxId, r.code])).toEqual([
      ["123", 422],
      ["abcdefgh", 422],
      [badCheck, 422],
    ]);
    expect(list.invalid[0]!.message).toMatch(/8 digits/);
    expect(list.invalid[2]!.message).toMatch(/check digit/);
  });

  it("keeps additions within the list capacity, counting remote items that stay", () => {
    const remote = [{ listKey: "k", listName: "a", createdAt: "2024-01-01", items: ids(0, 10) }];
    // 8 of the 10 remote items stay, 2 are removed; capacity 12 leaves room for 4 of 6 additions.
    const desired = [...ids(0, 8), ...ids(100, 6)];
    const plan = planReconcile(input([{ listName: "a", prune: true, taxIds: desired }], remote), {
      chunkSize: 500,
      capacity: 12,
    });
    const list = plan.lists[0]!;
    expect(list.remove).toEqual(ids(8, 2));
    expect(list.add).toEqual(ids(100, 4));
    expect(list.overCapacity.map((r) => [r.taxId, r.code])).toEqual([
      [taxId(104), 429],
      [taxId(105), 429],
    ]);
    expect(list.overCapacity[0]!.message).toMatch(/full/);
  });

  it("counts unpruned remote items against the capacity", () => {
    const remote = [{ listKey: "k", listName: "a", createdAt: "2024-01-01", items: ids(0, 10) }];
    const plan = planReconcile(input([{ listName: "a", prune: false, taxIds: ids(100, 5) }], remote), {
      chunkSize: 500,
      capacity: 12,
    });
    expect(plan.lists[0]!.add).toEqual(ids(100, 2));
    expect(plan.lists[0]!.overCapacity).toHaveLength(3);
  });

  it("holds back ids the registry refused recently", () => {
    const plan = planReconcile(
      input([{ listName: "a", prune: true, taxIds: ids(0, 3) }], [], new Map([["a", new Set([taxId(1)])]])),
      { chunkSize: 500 },
    );
    expect(plan.lists[0]!.add).toEqual([taxId(0), taxId(2)]);
    expect(plan.lists[0]!.heldBack).toEqual([taxId(1)]);
  });

  it("needs ceil(n / chunk) bulk requests per list and operation", () => {
    const remote = [{ listKey: "k", listName: "b", createdAt: "2024-01-01", items: ids(5000, 1001) }];
    const plan = planReconcile(
      input(
        [
          { listName: "a", prune: true, taxIds: ids(0, 1200) },
          { listName: "b", prune: true, taxIds: [] },
        ],
        remote,
      ),
      { chunkSize: 500 },
    );
    // a: create + 3 add chunks; b: 3 remove chunks.
    expect(plan.totals.writeRequests).toBe(1 + 3 + 3);
  });

  it("picks the oldest of remote lists sharing a name, then the smallest key, and says so", () => {
    const remote: RemoteList[] = [
      { listKey: "k3", listName: "a", createdAt: "2024-02-01" },
      { listKey: "k2", listName: "a", createdAt: "2024-01-01" },
      { listKey: "k1", listName: "a", createdAt: "2024-01-01" },
      { listKey: "k0", listName: "a", createdAt: null },
    ];
    expect(chooseRemoteList("a", remote).chosen?.listKey).toBe("k1");
    const plan = planReconcile(input([{ listName: "a", prune: true, taxIds: [] }], remote), {
      chunkSize: 500,
    });
    expect(plan.lists[0]!.listKey).toBe("k1");
    expect(plan.lists[0]!.ignoredKeys).toEqual(["k2", "k3", "k0"]);
    expect(plan.notes[0]).toMatch(/using k1/);
    // The console says the same remark in its reader's language, every value in place.
    const hu = saidIn(translatorFor("hu"), plan.notesSaid[0]!);
    expect(hu).toBe(
      "a(z) „a” lista 4 példányban van meg a nyilvántartásban; a legrégebbit (k1) tartjuk szinkronban, k2, k3 és k0 érintetlenek maradnak",
    );
    expect(saidIn(translatorFor("en"), plan.notesSaid[0]!)).toContain("k2, k3 and k0 are left untouched");
  });

  it("says a desired list's refused name in the console's language, the CLI's English kept", () => {
    const { refused } = checkDesiredLists([{ listName: " szallitok", prune: true, taxIds: [] }]);
    expect(refused[0]!.problem).toBe("has blanks before or after it");
    expect(saidIn(translatorFor("hu"), refused[0]!.problemSaid)).not.toBe("has blanks before or after it");
  });
});

describe("removal guards", () => {
  const remote = [{ listKey: "k", listName: "a", createdAt: "2024-01-01", items: ids(0, 150) }];

  it("refuses more removals than allowed and names the flag", () => {
    const plan = planReconcile(input([{ listName: "a", prune: true, taxIds: ids(0, 10) }], remote), {
      chunkSize: 500,
    });
    expect(guardProblems(plan, { maxRemovals: 100, allowEmpty: false })).toEqual([
      expect.stringContaining("--max-removals 140"),
    ]);
    expect(guardProblems(plan, { maxRemovals: 140, allowEmpty: false })).toEqual([]);
  });

  it("refuses to empty a list unless --allow-empty", () => {
    const plan = planReconcile(input([{ listName: "a", prune: true, taxIds: [] }], remote), {
      chunkSize: 500,
    });
    expect(plan.lists[0]!.emptied).toBe(true);
    const problems = guardProblems(plan, { maxRemovals: 1000, allowEmpty: false });
    expect(problems).toEqual([expect.stringContaining("--allow-empty")]);
    expect(guardProblems(plan, { maxRemovals: 1000, allowEmpty: true })).toEqual([]);
  });

  it("does not count a list that was empty already, or one replaced by new items, as emptied", () => {
    const empty = planReconcile(
      input([{ listName: "a", prune: true, taxIds: [] }], [{ listKey: "k", listName: "a", createdAt: null }]),
      { chunkSize: 500 },
    );
    expect(empty.lists[0]!.emptied).toBe(false);
    const replaced = planReconcile(input([{ listName: "a", prune: true, taxIds: ids(900, 1) }], remote), {
      chunkSize: 500,
    });
    expect(replaced.lists[0]!.emptied).toBe(false);
  });
});

describe("chunk", () => {
  it("splits into the fewest chunks, keeping order", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { maxLength: 300 }),
        fc.integer({ min: 1, max: 50 }),
        (items, size) => {
          const chunks = chunk(items, size);
          expect(chunks.length).toBe(Math.ceil(items.length / size));
          expect(chunks.flat()).toEqual(items);
          expect(chunks.every((c) => c.length > 0 && c.length <= size)).toBe(true);
        },
      ),
    );
  });

  it("rejects a chunk size that is not a positive integer", () => {
    expect(() => chunk([1], 0)).toThrow(RangeError);
  });
});

describe("plan properties", () => {
  it("adds only valid non-remote desired ids, removes only undesired remote ids, and respects capacity", () => {
    const idArb = fc.integer({ min: 0, max: 60 }).map(taxId);
    fc.assert(
      fc.property(
        fc.uniqueArray(idArb, { maxLength: 40 }),
        fc.uniqueArray(idArb, { maxLength: 40 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 50 }),
        (desired, remote, prune, capacity) => {
          const plan = planReconcile(
            input(
              [{ listName: "a", prune, taxIds: desired }],
              [{ listKey: "k", listName: "a", createdAt: null, items: remote }],
            ),
            { chunkSize: 7, capacity },
          );
          const list = plan.lists[0]!;
          const r = new Set(remote);
          const d = new Set(desired);
          expect(list.add.every((t) => d.has(t) && !r.has(t))).toBe(true);
          expect(list.remove.every((t) => r.has(t) && !d.has(t))).toBe(true);
          if (!prune) expect(list.remove).toEqual([]);
          const after = remote.length - list.remove.length + list.add.length;
          expect(after <= Math.max(capacity, remote.length - list.remove.length)).toBe(true);
          expect(list.add.length + list.overCapacity.length).toBe(desired.filter((t) => !r.has(t)).length);
        },
      ),
    );
  });
});

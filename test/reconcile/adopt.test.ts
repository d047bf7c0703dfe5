/**
 * The pure parts of adoption and of the record of what regwatch asked for: which remote items are
 * adopted, which are never removed, and what the record keeps and forgets around a run.
 */
import { describe, expect, it } from "vitest";
import { planAdoptions, withAdopted, withAdoptedManaged } from "../../src/reconcile/adopt.ts";
import type { ApplyResult } from "../../src/reconcile/apply.ts";
import { managedAfterApply, managedBeforeApply } from "../../src/reconcile/managed.ts";
import { type PlanInput, planReconcile, type RemoteList } from "../../src/reconcile/plan.ts";
import { checkDigit } from "../../src/taxid.ts";

function taxId(n: number): string {
  const seven = String(3_000_000 + n);
  return `${seven}${checkDigit(seven)}`;
}
const [a, b, c, d, e] = [1, 2, 3, 4, 5].map(taxId) as [string, string, string, string, string];
const LIST: RemoteList = { listKey: "k", listName: "s", createdAt: "2024-01-01" };

describe("adoption", () => {
  it("adopts the remote items no desired row names, only on a list not managed yet", () => {
    const desired = [{ listName: "s", prune: true, taxIds: [`${a}-2-41`, d] }];
    const items = new Map([["k", [a, b, c, "1234\n5678"]]]);
    const [plan] = planAdoptions(desired, [LIST], items, new Set());
    expect(plan).toEqual({ listName: "s", listKey: "k", taxIds: [b, c], remote: [a, b, c] });
    expect(planAdoptions(desired, [LIST], items, new Set(["k"]))).toEqual([]);
    // No remote list yet: nothing to adopt, the list is created.
    expect(planAdoptions(desired, [], items, new Set())).toEqual([]);

    const adopted = withAdopted(desired, [plan!]);
    expect(adopted[0]!.taxIds).toEqual([`${a}-2-41`, d, b, c]);
    const managed = withAdoptedManaged(new Map(), [plan!]);
    const input: PlanInput = {
      desired: adopted,
      remoteLists: [LIST],
      remoteItems: items,
      managedItems: managed,
    };
    const list = planReconcile(input, { chunkSize: 10 }).lists[0]!;
    expect(list).toMatchObject({ add: [d], remove: [], notRequested: ["1234\n5678"] });
  });

  it("removes only items regwatch asked for; one added at the registry is reported and kept", () => {
    const input: PlanInput = {
      desired: [{ listName: "s", prune: true, taxIds: [a] }],
      remoteLists: [LIST],
      remoteItems: new Map([["k", [a, b, c]]]),
      managedItems: new Map([["k", new Set([a, b])]]),
    };
    const list = planReconcile(input, { chunkSize: 10 }).lists[0]!;
    expect(list).toMatchObject({ remove: [b], notRequested: [c], emptied: false });
    const kept = planReconcile(
      { ...input, desired: [{ listName: "s", prune: false, taxIds: [a] }] },
      { chunkSize: 10 },
    ).lists[0]!;
    expect(kept).toMatchObject({ remove: [], keptUndesired: 1, notRequested: [c] });
  });

  it("keeps what a refused row seems to mean, and never sends it", () => {
    const fullWidth = [...b].map((x) => String.fromCodePoint(0xff10 + Number(x))).join("");
    const plan = planReconcile(
      {
        desired: [{ listName: "s", prune: true, taxIds: [a, fullWidth, `${d}\u0000`] }],
        remoteLists: [LIST],
        remoteItems: new Map([["k", [a, b]]]),
        managedItems: new Map([["k", new Set([a, b])]]),
      },
      { chunkSize: 10 },
    );
    const list = plan.lists[0]!;
    expect(list).toMatchObject({ add: [], remove: [], keptForRefusedRows: [b] });
    expect(list.invalid.map((r) => r.taxId)).toEqual([fullWidth, `${d}\u0000`]);
    expect(list.invalid[1]!.message).toContain("U+0000");
  });
});

describe("the record of what regwatch asked for", () => {
  const desired = [
    { listName: "s", prune: true, taxIds: [a, ` ${b} `, "bad"] },
    { listName: "new", prune: true, taxIds: [e] },
  ];
  const plan = planReconcile(
    {
      desired,
      remoteLists: [LIST],
      remoteItems: new Map([["k", [a, c]]]),
      managedItems: new Map([["k", new Set([a, c, d])]]),
    },
    { chunkSize: 10 },
  );

  it("records every valid desired id of a list in use and forgets what is neither wanted nor there", () => {
    const before = managedBeforeApply(
      desired,
      plan,
      new Map([["k", [a, c]]]),
      new Map([["k", new Set([a, c, d])]]),
    );
    expect(before.record).toEqual([{ listKey: "k", listName: "s", taxIds: [a, b] }]);
    expect(before.forget).toEqual([{ listKey: "k", listName: "s", taxIds: [d] }]);
  });

  it("after sending, records a created list and forgets confirmed removals only", () => {
    const applied = {
      lists: [
        { listName: "s", listKey: "k", created: false },
        { listName: "new", listKey: "k2", created: true },
      ],
      outcomes: [
        { listName: "s", taxId: c, op: "remove", verdict: "done", code: null, message: "removed" },
        { listName: "s", taxId: d, op: "remove", verdict: "refused", code: 409, message: "no" },
        { listName: "new", taxId: e, op: "add", verdict: "done", code: null, message: "added" },
      ],
    } as unknown as ApplyResult;
    const after = managedAfterApply(desired, applied);
    expect(after.record).toEqual([{ listKey: "k2", listName: "new", taxIds: [e] }]);
    expect(after.forget).toEqual([{ listKey: "k", listName: "s", taxIds: [c] }]);
  });
});

import { describe, expect, it } from "vitest";
import { planReconcile } from "../../src/reconcile/plan.ts";
import type { ReconcileReport } from "../../src/reconcile/reconcile.ts";
import { formatReport } from "../../src/reconcile/report.ts";
import { checkDigit } from "../../src/taxid.ts";

function taxId(n: number): string {
  const seven = String(2_000_000 + n);
  return `${seven}${checkDigit(seven)}`;
}

function reportOf(plan: ReconcileReport["plan"], status: ReconcileReport["status"]): ReconcileReport {
  return {
    runId: 7,
    dryRun: true,
    status,
    exitCode: 2,
    plan,
    problems: [],
    results: [],
    deletions: [],
    adoptions: [],
    refusedLists: [],
    requests: { reads: 2, writes: 0, failed: 0 },
    stats: {},
  };
}

describe("reconcile report", () => {
  it("shows a +N -M line per list and cuts long item lists", () => {
    const plan = planReconcile(
      {
        desired: [
          { listName: "big", prune: true, taxIds: Array.from({ length: 25 }, (_, i) => taxId(i)) },
          { listName: "old", prune: true, taxIds: [taxId(100)] },
        ],
        remoteLists: [{ listKey: "k1", listName: "old", createdAt: "2024-01-01" }],
        remoteItems: new Map([["k1", [taxId(100), taxId(101)]]]),
        managedItems: new Map([["k1", new Set([taxId(100), taxId(101)])]]),
      },
      { chunkSize: 10 },
    );
    const text = formatReport(reportOf(plan, "pending"), { maxItems: 3 });
    expect(text).toContain("changes pending");
    expect(text).toMatch(/\+ list "big" \(to be created\)\s+\+25 -0/);
    expect(text).toContain(`    + ${taxId(2)}\n    … and 22 more to add`);
    expect(text).toMatch(/~ list "old" \(k1\)\s+\+0 -1, 2 remote item\(s\)/);
    expect(text).toContain(`    - ${taxId(101)}`);
    expect(text).toContain("total: 2 list(s), 1 to create, +25 -1");
  });

  it("says when a list is in sync", () => {
    const plan = planReconcile(
      {
        desired: [{ listName: "a", prune: true, taxIds: [taxId(1)] }],
        remoteLists: [{ listKey: "k", listName: "a", createdAt: null }],
        remoteItems: new Map([["k", [taxId(1)]]]),
        managedItems: new Map([["k", new Set([taxId(1)])]]),
      },
      { chunkSize: 10 },
    );
    const text = formatReport(reportOf(plan, "in-sync"));
    expect(text).toContain("dry run: in sync");
    expect(text).toMatch(/= list "a" \(k\)\s+in sync, 1 remote item\(s\)/);
  });
});

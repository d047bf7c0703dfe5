/**
 * Adopting never removes: a desired list whose remote list exists but was never managed takes the
 * items on it into desired_items before anything is planned, and afterwards only items regwatch
 * asked for are ever removed. The exact scenario first: `watch add --list suppliers` on a
 * seeded list of 20, then `reconcile`, which used to say "+1 -20".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRegistry } from "../../src/api/registry.ts";
import { silentLogger } from "../../src/logger.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type Harness, mutatingRequests, remoteItems, startHarness, watchableTaxIds } from "./harness.ts";

let test: TestDatabase;
let harness: Harness;
let key: string;
let seeded: string[];
let own: string;
let handAdded: string;

beforeAll(async () => {
  test = await createTestDatabase();
  harness = await startHarness(test, { lists: [{ name: "suppliers", createdAt: "2025-02-01", size: 20 }] });
  const list = harness.emulator.listsSnapshot().find((l) => l.list_name === "suppliers")!;
  key = list.list_key;
  seeded = list.items.map((i) => i.tax_id).sort();
  const others = watchableTaxIds(harness.emulator, 200).filter((id) => !seeded.includes(id));
  [own, handAdded] = others as [string, string];
});
afterAll(async () => {
  await harness.close();
  await test.drop();
});

async function desiredRows() {
  return test.db.sql<
    { taxId: string; source: string | null; adoptedOn: string | null; adoptedFrom: string | null }[]
  >`
    select tax_id as "taxId", source, to_char(adopted_on, 'YYYY-MM-DD') as "adoptedOn", adopted_from as "adoptedFrom"
    from regwatch.desired_items where list_name = 'suppliers' order by tax_id`;
}

describe("adopting a remote list", () => {
  it("adds the one new item and removes none of the 20 already there (dry run first, which changes nothing)", async () => {
    const { emulator, env } = harness;
    const add = await runCli(["watch", "add", "--list", "suppliers", "--tax-id", own], env);
    expect(add.code, add.stderr).toBe(0);

    const dry = await runCli(["reconcile", "--dry-run"], env);
    expect(dry.code, dry.stderr).toBe(2);
    expect(dry.stdout).toMatch(
      new RegExp(`~ list "suppliers" \\(${key}\\)\\s+\\+1 -0, 20 remote item\\(s\\)`),
    );
    expect(dry.stdout).toContain("^ would adopt 20 item(s) already on the remote list");
    expect(mutatingRequests(emulator)).toEqual([]);
    expect((await desiredRows()).map((r) => r.taxId)).toEqual([own]);
    const [managed] = await test.db.sql<
      { n: number }[]
    >`select count(*)::int as n from regwatch.managed_lists`;
    expect(managed!.n).toBe(0);

    const apply = await runCli(["reconcile"], env);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toMatch(/\+1 -0/);
    expect(apply.stdout).toContain("^ adopted 20 item(s) already on the remote list into desired_items");
    expect(apply.stdout).toContain("20 adopted");
    expect(mutatingRequests(emulator).map((r) => r.endpoint)).toEqual(["POST /v2/lists/:key/items"]);
    expect(remoteItems(emulator, "suppliers")).toEqual([...seeded, own].sort());

    const rows = await desiredRows();
    expect(rows).toHaveLength(21);
    const adopted = rows.filter((r) => r.source === "adopted");
    expect(adopted.map((r) => r.taxId)).toEqual(seeded);
    // The registry's day (Europe/Budapest) the run adopted them on, and the list they came from.
    const [run] = await test.db.sql<{ day: string }[]>`
      select to_char(started_at at time zone 'Europe/Budapest', 'YYYY-MM-DD') as day
      from regwatch.runs where kind = 'reconcile' order by id desc limit 1`;
    expect(adopted.every((r) => r.adoptedOn === run!.day && r.adoptedFrom === key)).toBe(true);
    expect(rows.find((r) => r.taxId === own)).toMatchObject({ source: "cli", adoptedOn: null });
  });

  it("reports an item added at the registry by hand and leaves it on the list", async () => {
    const { emulator, env } = harness;
    const registry = createRegistry(harness.config, { log: silentLogger });
    try {
      await registry.watch.addItems(key, [handAdded]);
    } finally {
      await registry.close();
    }
    emulator.resetLog();
    const run = await runCli(["reconcile", "--json"], env);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      status: string;
      plan: { lists: { listName: string; remove: string[]; notRequested: string[] }[] };
    };
    expect(report.status).toBe("in-sync");
    expect(report.plan.lists[0]).toMatchObject({ remove: [], notRequested: [handAdded] });
    const text = await runCli(["reconcile"], env);
    expect(text.stdout).toContain(
      `? 1 item(s) regwatch never asked for (added at the registry): kept, not removed: ${handAdded}`,
    );
    expect(mutatingRequests(emulator)).toEqual([]);
    expect(remoteItems(emulator, "suppliers")).toContain(handAdded);
    const [state] = await test.db.sql<{ state: string }[]>`
      select state from regwatch.v_watch_status where list_name = 'suppliers' and tax_id = ${handAdded}`;
    expect(state!.state).toBe("not_requested");
    const listed = await runCli(["watch", "list", "--list", "suppliers", "--json"], env);
    const rows = JSON.parse(listed.stdout) as { taxId: string; state: string; source: string | null }[];
    expect(rows.find((r) => r.taxId === handAdded)).toMatchObject({ state: "not_requested", source: null });
    expect(rows.filter((r) => r.source === "adopted")).toHaveLength(20);
  });

  it("removes an adopted item taken out on purpose, and one another system's SQL took out, but never the hand-added one", async () => {
    const { emulator, env } = harness;
    const [byCli, bySql] = seeded as [string, string];
    const remove = await runCli(["watch", "remove", "--list", "suppliers", "--tax-id", byCli], env);
    expect(remove.code, remove.stderr).toBe(0);
    // Another system rewrites the list's rows wholesale, leaving one out.
    await test.db.sql.begin(async (tx) => {
      const kept = (
        await tx<{ tax_id: string }[]>`
        delete from regwatch.desired_items where list_name = 'suppliers' returning tax_id`
      ).filter((r) => r.tax_id !== bySql);
      await tx`insert into regwatch.desired_items ${tx(
        kept.map((r) => ({ list_name: "suppliers", tax_id: r.tax_id, source: "crm" })),
        "list_name",
        "tax_id",
        "source",
      )}`;
    });
    const [pending] = await test.db.sql<{ n: number }[]>`
      select count(*)::int as n from regwatch.v_watch_status where list_name = 'suppliers' and state = 'pending_remove'`;
    expect(pending!.n).toBe(2);

    emulator.resetLog();
    const run = await runCli(["reconcile"], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/\+0 -2/);
    expect(mutatingRequests(emulator).map((r) => [r.endpoint, r.taxIds])).toEqual([
      ["DELETE /v2/lists/:key/items", [byCli, bySql].sort()],
    ]);
    const remote = remoteItems(emulator, "suppliers");
    expect(remote).toContain(handAdded);
    expect(remote).not.toContain(byCli);
    expect(remote).not.toContain(bySql);
    // What was removed is forgotten: put back at the registry by hand, it would be someone else's.
    const [asked] = await test.db.sql<{ n: number }[]>`
      select count(*)::int as n from regwatch.managed_items where tax_id in (${byCli}, ${bySql})`;
    expect(asked!.n).toBe(0);
  });
});

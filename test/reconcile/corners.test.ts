import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRegistry, type RegistryClients } from "../../src/api/registry.ts";
import { loadConfig, requireWatch } from "../../src/config.ts";
import { silentLogger } from "../../src/logger.ts";
import { type ReconcileOptions, reconcile } from "../../src/reconcile/reconcile.ts";
import { formatReport } from "../../src/reconcile/report.ts";
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
  watchableTaxIds,
} from "./harness.ts";
import { type Script, type ScriptedRegistry, startScriptedRegistry } from "./scripted-registry.ts";

let test: TestDatabase;
let harness: Harness | undefined;
let scripted: ScriptedRegistry | undefined;
const registries: RegistryClients[] = [];

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
  await Promise.all(registries.splice(0).map((r) => r.close()));
  await scripted?.close();
  scripted = undefined;
});

/** Reconciles against a scripted registry with retries kept short. */
async function runScripted(script: Script, options: ReconcileOptions = {}) {
  scripted = await startScriptedRegistry(script);
  const config = loadConfig({
    REGWATCH_WATCH_URL: scripted.url,
    REGWATCH_API_KEY: "scripted-key",
    REGWATCH_MAX_ATTEMPTS: "1",
  });
  requireWatch(config);
  const registry = createRegistry(config, { log: silentLogger });
  registries.push(registry);
  return reconcile({ config, log: silentLogger, db: test.db, registry }, options);
}

describe("desired rows are normalised before any comparison", () => {
  it("keeps a remote item whose desired row is padded or written as a full tax number, and sends nothing", async () => {
    harness = await startHarness(test);
    const { sql } = test.db;
    const [a, b, c] = watchableTaxIds(harness.emulator, 3);
    await desireList(sql, "suppliers", [a!, b!, c!]);
    expect((await harness.run()).status).toBe("applied");
    const before = mutatingRequests(harness.emulator).length;

    // A BI tool rewrites the rows: a padded CHAR(9) column and a full tax number.
    await sql`update regwatch.desired_items set tax_id = ${`${a} `} where tax_id = ${a!}`;
    await sql`update regwatch.desired_items set tax_id = ${`${b}-2-41`} where tax_id = ${b!}`;
    const again = await harness.run();

    expect(again.status).toBe("in-sync");
    expect(again.plan?.totals.remove).toBe(0);
    expect(again.plan?.totals.add).toBe(0);
    expect(mutatingRequests(harness.emulator)).toHaveLength(before);
    expect(remoteItems(harness.emulator, "suppliers")).toEqual([a, b, c].sort());
  });

  it("refuses a row of neither shape with its reason, under the value as written, and never sends it", async () => {
    harness = await startHarness(test);
    const { sql } = test.db;
    const [a] = watchableTaxIds(harness.emulator, 1);
    await desireList(sql, "suppliers", [a!, "1234-5678", "12345678-2"]);
    const report = await harness.run();

    expect(report.status).toBe("applied");
    const refused = (await outcomes(sql)).filter((o) => o.code === 422);
    expect(refused.map((o) => o.taxId).sort()).toEqual(["1234-5678", "12345678-2"]);
    expect(refused[0]!.message).toMatch(/neither a tax base number \(8 digits\) nor a tax number/);
    // One list created, one bulk add: the refused rows never reached the registry.
    expect(mutatingRequests(harness.emulator)).toHaveLength(2);
    expect(remoteItems(harness.emulator, "suppliers")).toEqual([a]);
  });
});

const LIST = { list_key: "wl_1", list_name: "suppliers", created_at: "2025-01-02", watch_count: 2 };

describe("registry corners", () => {
  it("records a 409 on removal as a refusal, does not count it as removed, and does not resend it for 12 hours", async () => {
    // Both desired at first: regwatch asked for 22222222, so taking it out later removes it.
    await desireList(test.db.sql, "suppliers", ["11111111", "22222222"]);
    const script: Script = (r) => {
      if (r.method === "GET" && r.path === "/v2/lists")
        return { status: 200, body: { watch_lists: [LIST], total_watch_count: 2 } };
      if (r.method === "GET" && r.path === "/v2/lists/wl_1/items") {
        return {
          status: 200,
          body: {
            watched_items: [
              { tax_id: "11111111", added_at: "2025-01-02" },
              { tax_id: "22222222", added_at: "2025-01-02" },
            ],
          },
        };
      }
      if (r.method === "DELETE" && r.path === "/v2/lists/wl_1/items") {
        return { status: 200, body: { success: [], failed: [{ tax_id: "22222222", code: 409 }] } };
      }
      return undefined;
    };
    expect((await runScripted(script)).status).toBe("in-sync");
    await scripted!.close();
    await undesire(test.db.sql, "suppliers", ["22222222"]);
    const first = await runScripted(script);
    expect(first.stats.removed).toBe(0);
    expect(first.stats.removeRefused).toBe(1);
    const [row] = (await outcomes(test.db.sql)).filter((o) => o.op === "remove");
    expect(row).toMatchObject({ taxId: "22222222", code: 409 });
    expect(row!.message).toMatch(/not in a state that allows removal/);
    await scripted!.close();

    const second = await runScripted(script);
    expect(second.plan?.totals.remove).toBe(0);
    expect(second.plan?.totals.heldBackRemovals).toBe(1);
    expect(scripted!.requests.filter((r) => r.method === "DELETE")).toHaveLength(0);
    await scripted!.close();

    // The guard counts only removals that can happen: a held-back one does not trip it.
    const guarded = await runScripted(script, { maxRemovals: 0 });
    expect(guarded.status).toBe("in-sync");
    await scripted!.close();

    // --retry-refused asks again.
    const retried = await runScripted(script, { retryRefused: true });
    expect(retried.plan?.totals.remove).toBe(1);
    expect(scripted!.requests.filter((r) => r.method === "DELETE")).toHaveLength(1);
  });

  it("skips a list that vanished between listing and reading, and goes on with the others", async () => {
    await desireList(test.db.sql, "suppliers", ["11111111"]);
    await desireList(test.db.sql, "customers", ["22222222"]);
    const customers = { ...LIST, list_key: "wl_2", list_name: "customers", watch_count: 0 };
    const report = await runScripted((r) => {
      if (r.method === "GET" && r.path === "/v2/lists") {
        return { status: 200, body: { watch_lists: [LIST, customers], total_watch_count: 2 } };
      }
      if (r.path === "/v2/lists/wl_1/items") return { status: 404, body: { message: "no such list" } };
      if (r.method === "GET" && r.path === "/v2/lists/wl_2/items")
        return { status: 200, body: { watched_items: [] } };
      if (r.method === "POST" && r.path === "/v2/lists/wl_2/items") {
        return { status: 200, body: { success: ["22222222"], failed: [] } };
      }
      return undefined;
    });

    expect(report.status).toBe("partial");
    expect(report.exitCode).toBe(3);
    expect(report.problems.join("\n")).toMatch(/"suppliers" \(wl_1\) vanished between listing and reading/);
    expect(report.stats.added).toBe(1);
    // Nothing was created in place of the vanished list.
    expect(scripted!.requests.filter((r) => r.method === "POST" && r.path === "/v2/lists")).toHaveLength(0);
  });

  it("treats an answer with no lists as suspect when lists were known, and re-creates nothing", async () => {
    await desireList(test.db.sql, "suppliers", ["11111111"]);
    await test.db.sql`insert into regwatch.watch_lists (list_key, list_name, created_at, watch_count)
      values ('wl_1', 'suppliers', '2025-01-02', 1)`;
    const empty: Script = (r) => {
      if (r.method === "GET" && r.path === "/v2/lists")
        return { status: 200, body: { watch_lists: [], total_watch_count: 0 } };
      if (r.method === "POST" && r.path === "/v2/lists") {
        return { status: 201, body: { ...LIST, list_key: "wl_9", watch_count: 0 } };
      }
      if (r.method === "POST" && r.path === "/v2/lists/wl_9/items") {
        return { status: 200, body: { success: ["11111111"], failed: [] } };
      }
      return undefined;
    };
    const report = await runScripted(empty);

    expect(report.status).toBe("partial");
    expect(report.problems[0]).toMatch(/no watch lists although 1 were known.*--accept-empty-remote/);
    expect(scripted!.requests.filter((r) => r.method !== "GET")).toHaveLength(0);
    const [known] = await test.db.sql`select deleted_at from regwatch.watch_lists where list_key = 'wl_1'`;
    expect(known!.deleted_at).toBeNull();
    await scripted!.close();

    const accepted = await runScripted(empty, { acceptEmptyRemote: true });
    expect(accepted.status).toBe("applied");
    expect(scripted!.requests.filter((r) => r.method === "POST" && r.path === "/v2/lists")).toHaveLength(1);
  });

  it("stores, adopts and removes no remote item whose tax id is not a tax base number, and says so", async () => {
    await desireList(test.db.sql, "suppliers", ["11111111"]);
    const hostile = ["1111\u00001111", "22222222\n", "\u001b[2J3333"];
    const report = await runScripted((r) => {
      if (r.method === "GET" && r.path === "/v2/lists")
        return { status: 200, body: { watch_lists: [LIST], total_watch_count: 4 } };
      if (r.method === "GET" && r.path === "/v2/lists/wl_1/items") {
        const ids = ["11111111", ...hostile];
        return {
          status: 200,
          body: { watched_items: ids.map((tax_id) => ({ tax_id, added_at: "2025-01-02" })) },
        };
      }
      return undefined;
    });

    expect(report.status).toBe("in-sync");
    expect(report.adoptions).toEqual([]);
    expect(report.plan?.lists[0]).toMatchObject({ remove: [], notRequested: [...hostile].sort() });
    expect(report.plan?.notes.join("\n")).toContain("holds 3 item(s) whose tax id is not a tax base number");
    expect(scripted!.requests.filter((r) => r.method !== "GET")).toEqual([]);
    const stored = await test.db.sql`select tax_id from regwatch.watched_items`;
    expect(stored.map((r) => r.tax_id)).toEqual(["11111111"]);
    const text = formatReport(report);
    expect(text.includes("\u0000") || text.includes("\u001b")).toBe(false);
    expect(text).toContain("22222222\\n");
  });
});

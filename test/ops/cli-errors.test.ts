/**
 * Issue 14, as an operator meets it on the command line: one message per failure (a registry
 * that answers 401 or cannot be reached), retries visible from the first second, `--list` by
 * name or key with both shown, and a usage error that records no run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveListRefs } from "../../src/list-ref.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HostileServer, json, startHostileServer } from "../helpers/hostile-server.ts";
import { type Harness, startHarness } from "../reconcile/harness.ts";

const count = (text: string, part: string) => text.split(part).length - 1;

let test: TestDatabase;
let server: HostileServer;
let closedOrigin: string;
beforeAll(async () => {
  test = await createTestDatabase();
  server = await startHostileServer();
  const closed = await startHostileServer();
  closedOrigin = closed.origin;
  await closed.close();
});
afterAll(async () => {
  await server.close();
  await test.drop();
});

const envFor = (origin: string) => ({
  DATABASE_URL: test.url,
  REGWATCH_WATCH_URL: origin,
  REGWATCH_API_KEY: "cli-errors-key-0123456789",
  REGWATCH_MAX_ATTEMPTS: "3",
  REGWATCH_RETRY_BASE_MS: "50",
});

async function runRows(): Promise<number> {
  const [row] = await test.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.runs`;
  return row!.n;
}

describe("one message per failure", () => {
  it("a registry answering 401: reconcile and sync each say it once", async () => {
    server.answer = (_req, res) => json(res, 401, { message: "invalid api key" });
    for (const command of ["reconcile", "sync"]) {
      const result = await runCli([command], envFor(server.origin));
      expect(result.code, command).toBe(1);
      // The first request (the registry's description) is refused: the run stops there and says it once.
      expect(count(result.stderr, "answered 401"), `${command}: ${result.stderr}`).toBe(1);
      expect(result.stderr).toContain("the registry refused the key in REGWATCH_API_KEY");
      expect(count(result.stdout, "answered 401"), command).toBe(0);
      expect(result.stderr).not.toContain("cli-errors-key");
    }
  }, 180_000);

  it("an unreachable registry: every retry is a line naming the origin, the failure once", async () => {
    for (const command of ["reconcile", "sync"]) {
      const result = await runCli([command], envFor(closedOrigin));
      expect(result.code, command).toBe(1);
      expect(count(result.stderr, "GET /v2/lists: connection failed"), `${command}: ${result.stderr}`).toBe(
        1,
      );
      const retries = result.stderr.split("\n").filter((l) => l.includes("retrying GET /v2/lists"));
      expect(retries, command).toHaveLength(2);
      expect(retries[0]).toContain(`on ${closedOrigin}: NETWORK`);
      expect(retries[0]).toMatch(/attempt 2 of 3 in \d+\.\d s/);
    }
  }, 180_000);
});

describe("usage errors record no run", () => {
  it("sync --list with an unknown list, bad dates, reversed dates", async () => {
    server.answer = (req, res) => {
      if (req.path === "/v2/lists")
        json(res, 200, {
          watch_lists: [
            { list_key: "wl_1", list_name: "suppliers", created_at: "2024-01-01", watch_count: 0 },
          ],
        });
      else json(res, 404, { message: "no" });
    };
    const env = envFor(server.origin);
    await test.db.sql`truncate regwatch.runs`;
    const unknown = await runCli(["sync", "--list", "nosuch"], env);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toContain(
      "--list nosuch: no such watch list, by key or name (known: suppliers (wl_1))",
    );
    const badDate = await runCli(["backfill", "--from", "2024-02-30"], env);
    expect(badDate.code).toBe(64);
    expect(badDate.stderr).toContain('"2024-02-30" is not a real date');
    const reversed = await runCli(["backfill", "--from", "2024-03-10", "--to", "2024-03-01"], env);
    expect(reversed.code).toBe(64);
    const changes = await runCli(["changes", "--list", "nosuch"], env);
    expect(changes.code).toBe(64);
    expect(changes.stderr).toContain("known: suppliers (wl_1)");
    expect(await runRows()).toBe(0);
  }, 180_000);
});

describe("--list by name or key", () => {
  const known = [
    { listKey: "wl_1", listName: "suppliers" },
    { listKey: "wl_2", listName: "customers" },
    { listKey: "wl_3", listName: "customers" },
    { listKey: "wl_4", listName: "wl_1" },
  ];

  it("resolves keys first, names to every list of the name, and names what it cannot find", () => {
    expect(resolveListRefs(["suppliers"], known)).toEqual({ ok: true, lists: [known[0]] });
    expect(resolveListRefs(["wl_1"], known)).toEqual({ ok: true, lists: [known[0]] });
    expect(resolveListRefs(["customers", "wl_2"], known)).toEqual({ ok: true, lists: [known[1], known[2]] });
    expect(resolveListRefs([], known)).toEqual({ ok: true, lists: [] });
    expect(resolveListRefs(["nope", "suppliers", "gone"], known)).toMatchObject({
      ok: false,
      unknown: ["nope", "gone"],
      problem: expect.stringContaining("--list nope, gone: no such watch list"),
    });
  });

  describe("in the commands, against the emulator", () => {
    let db: TestDatabase;
    let harness: Harness;
    beforeAll(async () => {
      db = await createTestDatabase();
      harness = await startHarness(db, { lists: [{ name: "suppliers", createdAt: "2025-02-01", size: 5 }] });
    });
    afterAll(async () => {
      await harness.close();
      await db.drop();
    });

    it("backfill, changes and watch take the name or the key, and messages show both", async () => {
      const { env, emulator } = harness;
      const key = emulator.listsSnapshot()[0]!.list_key;
      for (const ref of ["suppliers", key]) {
        const run = await runCli(
          ["backfill", "--from", "2025-02-20", "--to", "2025-02-26", "--list", ref, "--json"],
          env,
        );
        expect(run.code, run.stderr).toBe(0);
        expect(JSON.parse(run.stdout)).toMatchObject({ lists: 1, status: "ok" });
        const changes = await runCli(["changes", "--since", "2025-02-01", "--list", ref, "--json"], env);
        expect(changes.code, changes.stderr).toBe(0);
      }
      const added = await runCli(["watch", "add", "--list", key, "--tax-id", "12345676"], env);
      expect(added.code, added.stderr).toBe(0);
      expect(added.stdout).toContain(`12345676 added to list "suppliers" (${key})`);
      const [row] = await db.db.sql`select list_name from regwatch.desired_items where tax_id = '12345676'`;
      expect(row).toEqual({ list_name: "suppliers" });
    }, 180_000);
  });
});

/**
 * Issue 35, point 5: `alerts rule add --list NAME` on a fresh install, where no sync has read the
 * registry's lists yet. A list the registry has is found with one request (counted in api_usage)
 * and the rule is added; offline, or when that request fails, the refusal says how to make the
 * list known.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { seedList } from "../helpers/sync.ts";

let test: TestDatabase;
let emulator: RunningEmulator;

beforeAll(async () => {
  test = await createTestDatabase();
  emulator = await startEmulator({
    seed: 5,
    businesses: 200,
    now: "2024-03-10T08:00:00Z",
    frozenClock: true,
  });
  await seedList(emulator, { name: "beta", createdAt: "2024-03-01", size: 3 });
}, 60_000);

afterAll(async () => {
  await emulator?.close();
  await test?.drop();
});

const add = (name: string, list: string, env: Record<string, string>) =>
  runCli(
    ["alerts", "rule", "add", name, "--channel", "notify", "--target", "regwatch_alerts", "--list", list],
    {
      DATABASE_URL: test.url,
      ...env,
    },
  );

const listRequests = () => emulator.requests().filter((r) => r.method === "GET" && r.path === "/v2/lists");

it("says how to make a list known when no registry is configured", async () => {
  const refused = await add("offline", "beta", {});
  expect(refused.code).toBe(64);
  expect(refused.stderr).toContain('--list "beta": no such list');
  expect(refused.stderr).toContain("no registry is configured (REGWATCH_WATCH_URL and REGWATCH_API_KEY)");
  expect(refused.stderr).toContain("run `regwatch sync`");
});

it("says why when the registry's lists cannot be read", async () => {
  const refused = await add("denied", "beta", {
    REGWATCH_WATCH_URL: emulator.url,
    REGWATCH_API_KEY: "wrong-key",
  });
  expect(refused.code).toBe(64);
  expect(refused.stderr).toContain("reading the registry's lists failed");
  expect(refused.stderr).toContain("run `regwatch sync`");
  const usage = await test.db.sql<{ requests: number; errors: number }[]>`
    select requests::int, errors::int from regwatch.api_usage where endpoint = 'GET /v2/lists'`;
  expect(usage).toEqual([{ requests: 1, errors: 1 }]);
});

it("reads the registry's lists once before refusing, and adds a rule for a list the registry has", async () => {
  emulator.resetLog();
  await test.db.sql`truncate regwatch.api_usage`;
  const env = { REGWATCH_WATCH_URL: emulator.url, REGWATCH_API_KEY: emulator.apiKey };
  const added = await add("beta-alerts", "beta", env);
  expect(added.stderr).toBe("");
  expect(added.code).toBe(0);
  expect(added.stdout).toContain("rule beta-alerts added");
  expect(listRequests()).toHaveLength(1);
  const usage = await test.db.sql<{ requests: number }[]>`
    select requests::int from regwatch.api_usage where endpoint = 'GET /v2/lists'`;
  expect(usage.reduce((sum, u) => sum + u.requests, 0)).toBe(1);
  // Known now: a second rule needs no request; a list the registry lacks is still refused, naming what it has.
  expect((await add("beta-again", "beta", env)).code).toBe(0);
  const missing = await add("gamma-alerts", "gamma", env);
  expect(missing.code).toBe(64);
  expect(missing.stderr).toContain('--list "gamma": no such list');
  expect(missing.stderr).toContain("beta (");
  expect(listRequests()).toHaveLength(2);
});

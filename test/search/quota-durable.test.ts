import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { childBaseEnv } from "../helpers/child-env.ts";
import { BIN, runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

/**
 * A search server that answers every page with one record and more to come, and holds back the
 * pages named in `hang` forever, so a test can kill a process with a request in flight.
 */
let server: Server;
let base: string;
let seen: number[];
let hang: Set<number>;
let onRequest: (() => void) | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    const page = Number(new URL(req.url ?? "/", "http://x").searchParams.get("page") ?? "1");
    seen.push(page);
    onRequest?.();
    if (hang.has(page)) return; // never answered
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        current_page: page,
        has_next: true,
        results: [{ type: "companies", tax_number: "12345676-2-41", full_name: `Cég ${page}` }],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(async () => {
  await test?.drop();
});
beforeEach(async () => {
  seen = [];
  hang = new Set();
  onRequest = undefined;
  await test.db.sql`truncate regwatch.api_usage`;
});

const env = () => ({
  DATABASE_URL: test.url,
  REGWATCH_SEARCH_URL: base,
  REGWATCH_API_KEY: "quota-test-key",
  REGWATCH_MAX_ATTEMPTS: "1",
});

async function searchRequestsCounted(): Promise<number> {
  const [row] = await test.db.sql<{ n: number }[]>`
    select coalesce(sum(requests), 0)::int as n from regwatch.api_usage where api = 'search'`;
  return row!.n;
}

describe("search quota accounting", () => {
  it("has counted every request a killed lookup --all sent, the one in flight included", async () => {
    hang.add(3);
    const child = spawn(process.execPath, [BIN, "lookup", "name", "cég", "--all"], {
      env: { ...childBaseEnv(), REGWATCH_LOG_LEVEL: "warn", ...env() },
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => child.on("close", resolve));
    // Killed without warning once the third page is on the wire.
    await new Promise<void>((resolve) => {
      onRequest = () => {
        if (seen.includes(3)) resolve();
      };
    });
    child.kill("SIGKILL");
    await exited;
    expect(seen).toEqual([1, 2, 3]);
    expect(await searchRequestsCounted()).toBe(3);
  });

  it("lets two lookups at once spend the quota together without passing it", async () => {
    const quotaEnv = { ...env(), REGWATCH_SEARCH_MONTHLY_QUOTA: "5" };
    const [a, b] = await Promise.all([
      runCli(["lookup", "name", "cég", "--all"], quotaEnv),
      runCli(["lookup", "name", "cég", "--all"], quotaEnv),
    ]);
    // Pages never end here, so both stop at the quota, with a message saying so.
    for (const result of [a, b]) {
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/monthly search quota is used up/);
    }
    expect(seen).toHaveLength(5);
    expect(await searchRequestsCounted()).toBe(5);
  });
});

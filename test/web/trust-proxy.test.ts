/**
 * REGWATCH_WEB_TRUST_PROXY names the proxies in front of the console: the address counted for the
 * sign-in limit is the one the nearest trusted proxy saw (the rightmost untrusted X-Forwarded-For
 * entry), never the leftmost entry a client writes; `true` and hop counts are refused at start
 * (exit 78) with what to write instead.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { ConfigError } from "../../src/errors.ts";
import { runCli } from "../helpers/cli.ts";
import {
  createUser,
  hiddenCsrf,
  startTestConsole,
  TEST_PASSWORD,
  type TestConsole,
} from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const WRONG = "not the password at all";

let t: TestDatabase;
let proxied: TestConsole;

beforeAll(async () => {
  t = await createTestDatabase();
  // The test's requests come from 127.0.0.1: that is the one proxy trusted.
  proxied = await startTestConsole(t.db, { env: { REGWATCH_WEB_TRUST_PROXY: "127.0.0.1" } });
  await createUser(t.db, "jana", "reader");
  await createUser(t.db, "karl", "reader");
});
afterAll(async () => {
  await proxied?.close();
  await t?.drop();
});

async function attemptFrom(name: string, password: string, headers: Record<string, string>) {
  const form = await fetch(`${proxied.url}/login`);
  const answer = await fetch(`${proxied.url}/login`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: form.headers.getSetCookie()[0]!.split(";")[0]!,
      ...headers,
    },
    body: new URLSearchParams({ username: name, password, _csrf: hiddenCsrf(await form.text()) }),
  });
  await answer.arrayBuffer();
  return answer;
}

describe("behind a trusted proxy", () => {
  it("counts the address the proxy saw, whatever the client wrote to the left of it", async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 7; i++) {
      // A new spoofed leftmost entry each time; the proxy appends the client's real address.
      const xff = `198.51.100.${i}, 203.0.113.7`;
      statuses.push((await attemptFrom("jana", WRONG, { "x-forwarded-for": xff })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    const right = await attemptFrom("jana", TEST_PASSWORD, { "x-forwarded-for": "10.9.9.9, 203.0.113.7" });
    expect(right.status).toBe(429);
    const rows = await t.db.sql<{ address: string }[]>`
      select distinct address from regwatch.console_login_failures where username = 'jana'`;
    expect(rows.map((r) => r.address)).toEqual(["203.0.113.7"]);
  });

  it("counts another client of the proxy apart, and believes the proxy's X-Forwarded-Proto", async () => {
    for (let i = 0; i < 5; i++) {
      expect((await attemptFrom("karl", WRONG, { "x-forwarded-for": "203.0.113.20" })).status).toBe(401);
    }
    const elsewhere = await attemptFrom("karl", TEST_PASSWORD, {
      "x-forwarded-for": "203.0.113.21",
      "x-forwarded-proto": "https",
    });
    expect(elsewhere.status).toBe(303);
    const cookie = elsewhere.headers.getSetCookie().find((c) => c.startsWith("regwatch_session="))!;
    expect(cookie).toMatch(/; Secure/i);
  });
});

describe("REGWATCH_WEB_TRUST_PROXY values", () => {
  const problemsOf = (value: string): string[] => {
    try {
      loadConfig({ DATABASE_URL: "postgres://127.0.0.1/x", REGWATCH_WEB_TRUST_PROXY: value });
      return [];
    } catch (error) {
      if (error instanceof ConfigError) return [...error.problems];
      throw error;
    }
  };

  it("takes addresses, networks and range names, and false", () => {
    const trust = (value: string) =>
      loadConfig({ DATABASE_URL: "postgres://127.0.0.1/x", REGWATCH_WEB_TRUST_PROXY: value }).webTrustProxy;
    expect(trust("10.0.0.5, 10.0.0.0/8,loopback, ::1, fd00::/8")).toEqual([
      "10.0.0.5",
      "10.0.0.0/8",
      "loopback",
      "::1",
      "fd00::/8",
    ]);
    expect(trust("false")).toBe(false);
    expect(loadConfig({ DATABASE_URL: "postgres://127.0.0.1/x" }).webTrustProxy).toBe(false);
  });

  it("refuses true, a hop count and what is not an address, saying what to write instead", () => {
    for (const value of ["true", "yes", "1", "2", "10.0.0.300", "10.0.0.0/33", "proxy.local"]) {
      const problems = problemsOf(value);
      expect(problems, value).toHaveLength(1);
      expect(problems[0], value).toMatch(/^REGWATCH_WEB_TRUST_PROXY: must /);
      expect(problems[0], value).toContain("comma list of their addresses or networks");
    }
    expect(problemsOf("true")[0]).toContain("leftmost X-Forwarded-For entry");
  });

  it("stops `regwatch web` with exit 78 when it is true", async () => {
    const result = await runCli(["web", "--port", "0"], {
      DATABASE_URL: t.url,
      REGWATCH_WEB_TRUST_PROXY: "true",
    });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("REGWATCH_WEB_TRUST_PROXY");
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let test: TestDatabase;
let emulator: RunningEmulator;
let env: Record<string, string>;

beforeAll(async () => {
  test = await createTestDatabase();
  emulator = await startEmulator({
    seed: 7,
    businesses: 2000,
    now: "2024-03-01T08:00:00Z",
    frozenClock: true,
  });
  env = { DATABASE_URL: test.url, REGWATCH_SEARCH_URL: emulator.url, REGWATCH_API_KEY: emulator.apiKey };
});
afterAll(async () => {
  await emulator?.close();
  await test?.drop();
});
beforeEach(async () => {
  emulator.resetLog();
  await test.db.sql`truncate regwatch.api_usage, regwatch.businesses`;
});

const searches = () => emulator.requests().filter((r) => r.path.startsWith("/v1/"));

async function usage(): Promise<{ endpoint: string; requests: number }[]> {
  return test.db.sql<{ endpoint: string; requests: number }[]>`
    select endpoint, requests from regwatch.api_usage where api = 'search' order by endpoint`;
}

describe("regwatch lookup", () => {
  it("follows has_next to the last page with --all and keeps every record in businesses", async () => {
    const result = await runCli(["lookup", "name", "Kovács", "--all", "--json"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as {
      pages: number;
      has_more: boolean;
      results: { tax_number: string }[];
    };
    expect(report.pages).toBeGreaterThan(1);
    expect(report.has_more).toBe(false);
    const sent = searches();
    expect(sent.map((r) => r.query.page ?? "1")).toEqual(
      Array.from({ length: report.pages }, (_, i) => String(i + 1)),
    );
    expect(sent.every((r) => r.status === 200 && r.query.value === "Kovács")).toBe(true);
    const bases = new Set(report.results.map((r) => r.tax_number.slice(0, 8)));
    const [stored] = await test.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.businesses`;
    expect(stored?.n).toBe(bases.size);
    expect(await usage()).toEqual([{ endpoint: "GET /v1/names", requests: report.pages }]);
  });

  it("fetches one page without --all and says that more exist", async () => {
    const result = await runCli(["lookup", "name", "Kovács"], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^TYPE\s+STATUS\s+NAME\s+SEAT\s+TAX NUMBER\s+REG\. NUMBER/);
    expect(result.stdout).toContain("run again with --all");
    expect(searches()).toHaveLength(1);
  });

  it("stops at the monthly quota with a message naming it, and then sends nothing", async () => {
    const limited = { ...env, REGWATCH_SEARCH_MONTHLY_QUOTA: "2" };
    const first = await runCli(["lookup", "name", "Kovács", "--all"], limited);
    expect(first.code).toBe(1);
    expect(first.stderr).toContain("REGWATCH_SEARCH_MONTHLY_QUOTA is 2");
    expect(first.stderr).toContain("no request was sent");
    expect(searches()).toHaveLength(2);
    // What the two paid pages returned is kept.
    const [stored] = await test.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.businesses`;
    expect(stored?.n).toBeGreaterThan(0);
    expect(await usage()).toEqual([{ endpoint: "GET /v1/names", requests: 2 }]);

    const again = await runCli(["lookup", "reg-number", "01-09-880107"], limited);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("monthly search quota is used up: 2 search request(s) counted this month");
    expect(searches()).toHaveLength(2);
  });

  it("shows both businesses of a tax base number that changed type, and stores both", async () => {
    const [company, former] = emulator.sampleBusinesses({ shared: true, limit: 2 });
    const regNumber = String(company?.registration_number);
    const result = await runCli(["lookup", "reg-number", regNumber], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(String(company?.full_name));
    expect(result.stdout).toContain(String(former?.full_name));
    expect(result.stdout).toMatch(/company\s+operating/);
    expect(result.stdout).toMatch(/sole proprietor\s+ceased/);
    const [row] = await test.db.sql<{ type: string; records: { type: string }[] }[]>`
      select type, records from regwatch.businesses where tax_id = ${String(company?.tax_id)}`;
    expect(row?.records.map((r) => r.type).sort()).toEqual(["companies", "self_employed"]);
    expect(row?.type).toBe(company?.type);
  });

  it("exits 0 on no hit, and 64 without sending anything on bad input", async () => {
    const none = await runCli(["lookup", "bank-account", "00000000-00000000"], env);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('no business found for bank-account "00000000-00000000"');

    emulator.resetLog();
    const short = await runCli(["lookup", "name", "ab"], env);
    expect(short.code).toBe(64);
    expect(short.stderr).toContain('name "ab" is too short');
    const badReg = await runCli(["lookup", "reg-number", "01-09-12"], env);
    expect(badReg.code).toBe(64);
    expect(badReg.stderr).toContain("matches none of the formats");
    const badKind = await runCli(["lookup", "colour", "red"], env);
    expect(badKind.code).toBe(64);
    expect(searches()).toEqual([]);
  });

  it("names the missing search address as a configuration error", async () => {
    const result = await runCli(["lookup", "name", "Kovács"], { DATABASE_URL: test.url });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("REGWATCH_SEARCH_URL");
  });
});

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let test: TestDatabase;
let emulator: RunningEmulator;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  test = await createTestDatabase();
  emulator = await startEmulator({
    seed: 11,
    businesses: 2000,
    now: "2024-03-01T08:00:00Z",
    frozenClock: true,
  });
  env = { DATABASE_URL: test.url, REGWATCH_SEARCH_URL: emulator.url, REGWATCH_API_KEY: emulator.apiKey };
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-watch-"));
});
afterAll(async () => {
  await emulator?.close();
  await test?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  emulator.resetLog();
  await test.db.sql`truncate regwatch.desired_lists cascade`;
});

interface ItemRow {
  list_name: string;
  tax_id: string;
  source: string;
  note: string | null;
}
const items = () =>
  test.db.sql<
    ItemRow[]
  >`select list_name, tax_id, source, note from regwatch.desired_items order by list_name, tax_id`;

async function csv(name: string, lines: string[]): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, `${lines.join("\n")}\n`);
  return file;
}

describe("regwatch watch add / remove / list", () => {
  it("adds a company by registration number as its tax base number, creating the list", async () => {
    const [company] = emulator.sampleBusinesses({ type: "companies", limit: 1 });
    const result = await runCli(
      [
        "watch",
        "add",
        "--list",
        "clients",
        "--reg-number",
        String(company?.registration_number),
        "--note",
        "key account",
      ],
      env,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `${company?.tax_id} (registration number ${company?.registration_number}) added`,
    );
    expect(await items()).toEqual([
      { list_name: "clients", tax_id: String(company?.tax_id), source: "cli", note: "key account" },
    ]);
    const [list] = await test.db.sql`select prune from regwatch.desired_lists where list_name = 'clients'`;
    expect(list?.prune).toBe(true);
    expect(emulator.requests().map((r) => r.endpoint)).toEqual(["GET /v1/reg-numbers"]);
    const [usage] = await test.db.sql`
      select requests from regwatch.api_usage where api = 'search' and endpoint = 'GET /v1/reg-numbers'`;
    expect(usage?.requests).toBeGreaterThanOrEqual(1);
    const [cached] = await test.db
      .sql`select full_name from regwatch.businesses where tax_id = ${String(company?.tax_id)}`;
    expect(cached?.full_name).toBe(company?.full_name);
  });

  it("refuses an unknown registration number clearly and changes nothing", async () => {
    const result = await runCli(["watch", "add", "--list", "clients", "--reg-number", "99-99-999999"], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("registration number 99-99-999999 was not found in the registry");
    expect(await items()).toEqual([]);
    const lists = await test.db.sql`select * from regwatch.desired_lists`;
    expect(lists).toEqual([]);
  });

  it("refuses a tax id with a wrong check digit (exit 64) and bad option combinations", async () => {
    const bad = await runCli(["watch", "add", "--list", "clients", "--tax-id", "10000004"], env);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('tax id "10000004" has a wrong check digit (expected 1)');
    const both = await runCli(
      ["watch", "add", "--list", "x", "--tax-id", "10000001", "--reg-number", "12345"],
      env,
    );
    expect(both.code).toBe(64);
    expect(both.stderr).toContain("exactly one of --tax-id and --reg-number");
    const noList = await runCli(["watch", "add", "--tax-id", "10000001"], env);
    expect(noList.code).toBe(64);
    expect(emulator.requests()).toEqual([]);
    expect(await items()).toEqual([]);
  });

  it("adds by tax id without searching and honours --no-prune", async () => {
    const add = await runCli(["watch", "add", "--list", "audit", "--tax-id", "10000001", "--no-prune"], env);
    expect(add.code).toBe(0);
    expect(add.stdout).toContain('10000001 added to list "audit" (new desired list)');
    const again = await runCli(["watch", "add", "--list", "audit", "--tax-id", "10000001"], env);
    expect(again.stdout).toContain('10000001 was already desired on list "audit"');
    expect(emulator.requests()).toEqual([]);
    const [list] = await test.db.sql`select prune from regwatch.desired_lists where list_name = 'audit'`;
    // Naming the list again without --prune/--no-prune keeps its setting.
    expect(list?.prune).toBe(false);
  });

  it("lists desired items with their reconcile state", async () => {
    await test.db.sql`insert into regwatch.desired_lists (list_name) values ('audit'), ('empty')`;
    await test.db.sql`
      insert into regwatch.desired_items (list_name, tax_id, source) values
        ('audit', '10000001', 'cli'), ('audit', '10000018', 'import')`;
    const listed = await runCli(["watch", "list", "--list", "audit", "--json"], env);
    expect(listed.code).toBe(0);
    const rows = JSON.parse(listed.stdout) as { taxId: string; state: string; source: string }[];
    expect(rows.map((r) => [r.taxId, r.state, r.source])).toEqual([
      ["10000001", "pending_add", "cli"],
      ["10000018", "pending_add", "import"],
    ]);
    const table = await runCli(["watch", "list"], env);
    expect(table.stdout).toMatch(/^LIST\s+TAX ID\s+STATE/);
    expect(table.stdout).toMatch(/audit\s+10000001\s+pending_add/);
    expect(table.stdout).toMatch(/empty\s+\(no items\)/);
  });

  it("removes an item, says when it was not desired, and refuses an unknown list", async () => {
    await test.db.sql`insert into regwatch.desired_lists (list_name) values ('audit')`;
    await test.db.sql`
      insert into regwatch.desired_items (list_name, tax_id) values ('audit', '10000001'), ('audit', '10000018')`;
    const removed = await runCli(["watch", "remove", "--list", "audit", "--tax-id", "10000001"], env);
    expect(removed.code).toBe(0);
    expect((await items()).map((i) => i.tax_id)).toEqual(["10000018"]);
    const absent = await runCli(["watch", "remove", "--list", "audit", "--tax-id", "10000001"], env);
    expect(absent.code).toBe(0);
    expect(absent.stdout).toContain("was not desired");
    const unknownList = await runCli(["watch", "remove", "--list", "nope", "--tax-id", "10000001"], env);
    expect(unknownList.code).toBe(1);
    expect(unknownList.stderr).toContain('no desired list "nope"');
  });
});

describe("regwatch watch import", () => {
  it("names every bad line, sends nothing and changes nothing", async () => {
    await runCli(["watch", "add", "--list", "bulk", "--tax-id", "10000001"], env);
    const before = await items();
    const file = await csv("bad.csv", [
      "tax_id,note",
      "10000018,ok",
      "10000004,bad digit",
      "10000032,ok",
      "1234,short",
    ]);
    const result = await runCli(["watch", "import", "--list", "bulk", file], env);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain("2 problem(s), nothing was changed");
    expect(result.stderr).toContain('line 3: tax id "10000004" has a wrong check digit');
    expect(result.stderr).toContain('line 5: tax_id "1234" is neither a tax base number');
    expect(await items()).toEqual(before);
    expect(emulator.requests()).toEqual([]);
  });

  it("imports tax ids and registration numbers in one transaction", async () => {
    const [a, b] = emulator.sampleBusinesses({ type: "companies", limit: 2 });
    const [civil] = emulator.sampleBusinesses({ type: "civil_orgs", limit: 1 });
    const file = await csv("good.csv", [
      "tax_id,reg_number,note",
      `${a?.tax_id},,first`,
      `,${b?.registration_number},second`,
      `,${civil?.registration_number},`,
      `${b?.tax_id},,duplicate of line 3`,
    ]);
    const result = await runCli(["watch", "import", "--list", "bulk", file], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("4 row(s), 3 business(es): 3 added");
    const rows = await items();
    expect(rows.map((r) => [r.tax_id, r.source, r.note]).sort()).toEqual(
      [
        [String(a?.tax_id), "import", "first"],
        [String(b?.tax_id), "import", "second"],
        [String(civil?.tax_id), "import", null],
      ].sort(),
    );
    expect(emulator.requests().map((r) => r.endpoint)).toEqual([
      "GET /v1/reg-numbers",
      "GET /v1/reg-numbers",
    ]);
  });

  it("fails on an unknown registration number, naming its line, and adds nothing", async () => {
    const [a] = emulator.sampleBusinesses({ type: "companies", limit: 1 });
    const file = await csv("unknown.csv", ["reg_number", String(a?.registration_number), "99-99-999999"]);
    const result = await runCli(["watch", "import", "--list", "bulk", file], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("line 3: registration number 99-99-999999 was not found");
    expect(await items()).toEqual([]);
    // The search that succeeded was paid for: its record is kept.
    const kept = await test.db.sql`select 1 from regwatch.businesses where tax_id = ${String(a?.tax_id)}`;
    expect(kept).toHaveLength(1);
  });

  it("imports a semicolon file with a BOM, quoted names and full tax numbers", async () => {
    const [a, b] = emulator.sampleBusinesses({ type: "companies", limit: 2 });
    const file = path.join(dir, "hu.csv");
    await writeFile(
      file,
      `\uFEFFtax_number;name;note\r\n${a?.tax_id}-2-41;"Első; Kft.";"a ""quoted"" note"\r\n${b?.tax_id};Második Bt.;\r\n`,
    );
    const result = await runCli(["watch", "import", "--list", "bulk", file], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect((await items()).map((r) => [r.tax_id, r.note]).sort()).toEqual(
      [
        [String(a?.tax_id), 'a "quoted" note'],
        [String(b?.tax_id), null],
      ].sort(),
    );
    expect(emulator.requests()).toEqual([]);
  });

  it("adds a business given by its full tax number as its tax base number", async () => {
    const [a] = emulator.sampleBusinesses({ type: "companies", limit: 1 });
    const result = await runCli(["watch", "add", "--list", "bulk", "--tax-id", ` ${a?.tax_id}-2-41 `], env);
    expect(result.code).toBe(0);
    expect((await items()).map((r) => r.tax_id)).toEqual([String(a?.tax_id)]);
  });

  it("refuses before searching when the quota cannot pay for every registration number", async () => {
    const [a, b] = emulator.sampleBusinesses({ type: "companies", limit: 2 });
    const file = await csv("quota.csv", [
      "reg_number",
      String(a?.registration_number),
      String(b?.registration_number),
    ]);
    const result = await runCli(["watch", "import", "--list", "bulk", file], {
      ...env,
      REGWATCH_SEARCH_MONTHLY_QUOTA: "1",
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /needs as many search requests, but only [01] of REGWATCH_SEARCH_MONTHLY_QUOTA=1/,
    );
    expect(emulator.requests()).toEqual([]);
    expect(await items()).toEqual([]);
  });
});

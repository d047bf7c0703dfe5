/**
 * Runs every query of docs/queries.md against realistic rows written straight into the tables
 * (as sync, reconcile and lookup would leave them) and checks what each returns.
 */
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const QUERIES = new URL("../../docs/queries.md", import.meta.url);

/** `## Title` followed (after prose) by a ```sql block: title → SQL. */
async function documentedQueries(): Promise<Map<string, string>> {
  const text = await readFile(QUERIES, "utf8");
  const queries = new Map<string, string>();
  for (const match of text.matchAll(/^## (.+)$[\s\S]*?^```sql\n([\s\S]*?)^```$/gm)) {
    queries.set(match[1]!.trim(), match[2]!.trim());
  }
  return queries;
}

let test: TestDatabase;
let queries: Map<string, string>;
/** The database's current_date minus `n` days, as the driver returns dates. */
let daysAgo: (n: number) => Date;

beforeAll(async () => {
  test = await createTestDatabase();
  queries = await documentedQueries();
  const { sql } = test.db;
  // Taken from the database, so that neither time zones nor daylight saving shift a day.
  const days = await sql<{ n: number; d: Date }[]>`
    select n, current_date - n as d from generate_series(0, 90) as n`;
  daysAgo = (n) => days[n]!.d;
  await seed(test);
});
afterAll(async () => {
  await test?.drop();
});

async function seed({ db: { sql } }: TestDatabase): Promise<void> {
  await sql`
    insert into regwatch.watch_lists (list_key, list_name, created_at, watch_count, deleted_at) values
      ('k1', 'clients', current_date - 60, 3, null),
      ('k2', 'suppliers', current_date - 60, 1, null),
      ('k3', 'retired', current_date - 90, 0, now() - interval '5 days')`;
  await sql`
    insert into regwatch.watched_items (list_key, tax_id, added_at) values
      ('k1', '10000001', current_date - 50), ('k1', '10000018', current_date - 50),
      ('k1', '10000049', current_date - 50), ('k2', '10000056', current_date - 40)`;
  await sql`
    insert into regwatch.businesses (tax_id, type, status_code, full_name, tax_number, record, records) values
      ('10000001', 'companies', 1, 'Alfa Kereskedelmi Kft.', '10000001-2-41', '{}', '[{}]'),
      ('10000018', 'companies', 0, 'Béta Építő Bt.', '10000018-2-13', '{}', '[{}]'),
      ('10000025', 'self_employed', 1, 'Gamma Gábor e.v.', '10000025-1-02', '{}', '[{}, {}]'),
      ('10000056', 'civil_orgs', 1, 'Delta Egyesület', '10000056-1-42', '{}', '[{}]')`;
  await sql`
    insert into regwatch.desired_lists (list_name, prune) values ('clients', true), ('suppliers', false)`;
  // What regwatch asked for on its lists: 10000049 was desired on clients once, so it is pending removal.
  await sql`insert into regwatch.managed_lists (list_key, list_name) values ('k1', 'clients'), ('k2', 'suppliers')`;
  await sql`
    insert into regwatch.managed_items (list_key, tax_id) values
      ('k1', '10000001'), ('k1', '10000018'), ('k1', '10000049'), ('k2', '10000056')`;
  await sql`
    insert into regwatch.desired_items (list_name, tax_id, source) values
      ('clients', '10000001', 'cli'), ('clients', '10000018', 'import'), ('clients', '10000025', 'import'),
      ('clients', '10000063', 'crm'), ('suppliers', '10000056', 'cli'), ('suppliers', '10000032', 'cli')`;
  await sql`
    insert into regwatch.item_outcomes (list_name, tax_id, op, code, message, at) values
      ('clients', '10000001', 'add', null, null, now() - interval '50 days'),
      ('clients', '10000025', 'add', 404, 'no business with this tax id', now() - interval '1 day'),
      ('clients', '10000063', 'add', 429, 'list is full', now() - interval '2 hours'),
      ('clients', '10000070', 'add', 422, 'invalid tax id', now() - interval '3 days'),
      ('suppliers', '10000032', 'remove', 409, 'not on the list', now() - interval '1 day')`;
  // Coverage of clients misses 3 days in the middle; suppliers is complete; the deleted list has a gap too.
  await sql`
    insert into regwatch.coverage (list_key, start_date, end_date, change_count) values
      ('k1', current_date - 20, current_date - 14, 1), ('k1', current_date - 10, current_date - 4, 2),
      ('k1', current_date - 3, current_date - 1, 1),
      ('k2', current_date - 14, current_date - 8, 0), ('k2', current_date - 7, current_date - 1, 2),
      ('k3', current_date - 40, current_date - 35, 0), ('k3', current_date - 30, current_date - 25, 0)`;
  const changes = await sql<{ id: number; tax_id: string }[]>`
    insert into regwatch.changes (tax_id, change_date, chapter, path, changed_headings, raw) values
      ('10000001', current_date - 2, '1', 'https://files.example/a.json', '{bank_accounts}', '{}'),
      ('10000018', current_date - 10, '1', 'https://files.example/b.json', '{bank_accounts}', '{}'),
      ('10000018', current_date - 1, '2', 'https://files.example/c.json', '{long_name}', '{}'),
      ('10000056', current_date - 3, '1', 'https://files.example/d.json', '{long_name,bank_accounts}', '{}'),
      ('10000049', current_date - 45, '1', 'https://elsewhere.example/e.json', '{long_name}', '{}')
    returning id, tax_id`;
  const id = (taxId: string, nth = 0) => changes.filter((c) => c.tax_id === taxId)[nth]!.id;
  await sql`
    insert into regwatch.change_sources (change_id, list_key) values
      (${id("10000001")}, 'k1'), (${id("10000018")}, 'k1'), (${id("10000018", 1)}, 'k1'),
      (${id("10000018", 1)}, 'k2'), (${id("10000056")}, 'k2'), (${id("10000049")}, 'k1')`;
  await sql`
    insert into regwatch.change_files (path, status, http_status, attempts, last_error) values
      ('https://files.example/a.json', 'fetched', 200, 1, null),
      ('https://files.example/b.json', 'pending', null, 0, null),
      ('https://files.example/c.json', 'failed', 503, 3, 'answered 503: try later'),
      ('https://files.example/d.json', 'fetched', 200, 2, null),
      ('https://elsewhere.example/e.json', 'refused', null, 0, 'origin not in REGWATCH_FILE_ORIGINS')`;
  await sql`
    insert into regwatch.api_usage (day, api, endpoint, requests, errors) values
      (current_date, 'search', 'GET /v1/names', 7, 1),
      (date_trunc('month', current_date)::date, 'search', 'GET /v1/reg-numbers', 5, 0),
      ((date_trunc('month', current_date) - interval '1 day')::date, 'search', 'GET /v1/names', 100, 0),
      (current_date, 'watch', 'GET /v2/lists', 50, 0)`;
  await sql`
    insert into regwatch.runs (kind, trigger, started_at, finished_at, status, error) values
      ('sync', 'schedule', now() - interval '2 days', now() - interval '2 days' + interval '5 minutes', 'ok', null),
      ('sync', 'cli', now() - interval '1 hour', now() - interval '1 hour' + interval '90 seconds', 'partial', null),
      ('reconcile', 'schedule', now() - interval '1 day', now() - interval '1 day' + interval '10 seconds', 'ok', null),
      ('backfill', 'cli', now() - interval '3 days', now() - interval '3 days' + interval '1 minute', 'failed', 'connection reset')`;
}

async function run(title: string): Promise<Record<string, unknown>[]> {
  const query = queries.get(title);
  if (!query) throw new Error(`docs/queries.md has no query titled "${title}"`);
  return [...(await test.db.sql.unsafe(query))];
}

const EXPECTED_TITLES = [
  "Bank account changes in the last 7 days",
  "Lists with coverage gaps",
  "Desired items that failed and why",
  "Watch state per list",
  "Changes per list and heading in the last 30 days",
  "Change files not downloaded",
  "Watched businesses that have ceased",
  "Search requests this month",
  "Latest run of each kind",
  // Run against data from a sync in test/parse/what-changed.test.ts.
  "Suppliers whose bank account changed in the last 30 days, with the new account",
  "Company X before and after its last change",
];

describe("docs/queries.md", () => {
  it("documents exactly the queries tested here", () => {
    expect([...queries.keys()]).toEqual(EXPECTED_TITLES);
  });

  it("bank account changes in the last 7 days", async () => {
    expect(await run("Bank account changes in the last 7 days")).toEqual([
      {
        change_date: daysAgo(2),
        tax_id: "10000001",
        business_name: "Alfa Kereskedelmi Kft.",
        list_names: ["clients"],
        file_status: "fetched",
      },
      {
        change_date: daysAgo(3),
        tax_id: "10000056",
        business_name: "Delta Egyesület",
        list_names: ["suppliers"],
        file_status: "fetched",
      },
    ]);
  });

  it("lists with coverage gaps", async () => {
    expect(await run("Lists with coverage gaps")).toEqual([
      {
        list_name: "clients",
        first_covered_day: daysAgo(20),
        last_covered_day: daysAgo(1),
        gap_days: 3,
        gap_start: daysAgo(13),
        gap_end: daysAgo(11),
      },
    ]);
  });

  it("desired items that failed and why", async () => {
    const rows = await run("Desired items that failed and why");
    expect(rows.map(({ at, ...rest }) => rest)).toEqual([
      {
        list_name: "clients",
        tax_id: "10000025",
        business_name: "Gamma Gábor e.v.",
        op: "add",
        code: 404,
        reason: "no such business in the registry",
        message: "no business with this tax id",
      },
      {
        list_name: "clients",
        tax_id: "10000063",
        business_name: null,
        op: "add",
        code: 429,
        reason: "list or contract limit reached",
        message: "list is full",
      },
      {
        list_name: "suppliers",
        tax_id: "10000032",
        business_name: null,
        op: "remove",
        code: 409,
        reason: "not in a state that allows removal",
        message: "not on the list",
      },
    ]);
  });

  it("watch state per list", async () => {
    expect(await run("Watch state per list")).toEqual([
      { list_name: "clients", state: "add_failed", items: 2 },
      { list_name: "clients", state: "in_sync", items: 2 },
      { list_name: "clients", state: "pending_remove", items: 1 },
      { list_name: "suppliers", state: "in_sync", items: 1 },
      { list_name: "suppliers", state: "pending_add", items: 1 },
    ]);
  });

  it("changes per list and heading in the last 30 days", async () => {
    expect(await run("Changes per list and heading in the last 30 days")).toEqual([
      { list_name: "clients", heading: "bank_accounts", changes: 2 },
      { list_name: "clients", heading: "long_name", changes: 1 },
      { list_name: "suppliers", heading: "long_name", changes: 2 },
      { list_name: "suppliers", heading: "bank_accounts", changes: 1 },
    ]);
  });

  it("change files not downloaded", async () => {
    expect(await run("Change files not downloaded")).toEqual([
      {
        status: "failed",
        path: "https://files.example/c.json",
        attempts: 3,
        http_status: 503,
        last_error: "answered 503: try later",
      },
      {
        status: "pending",
        path: "https://files.example/b.json",
        attempts: 0,
        http_status: null,
        last_error: null,
      },
      {
        status: "refused",
        path: "https://elsewhere.example/e.json",
        attempts: 0,
        http_status: null,
        last_error: "origin not in REGWATCH_FILE_ORIGINS",
      },
    ]);
  });

  it("watched businesses that have ceased", async () => {
    expect(await run("Watched businesses that have ceased")).toEqual([
      { list_name: "clients", tax_id: "10000018", name: "Béta Építő Bt.", type: "companies" },
    ]);
  });

  it("search requests this month", async () => {
    const [month] = await test.db.sql<{ m: string }[]>`select to_char(current_date, 'YYYY-MM') as m`;
    expect(await run("Search requests this month")).toEqual([{ month: month!.m, requests: 12, errors: 1 }]);
  });

  it("latest run of each kind", async () => {
    const rows = await run("Latest run of each kind");
    expect(rows.map((r) => [r.kind, r.status, r.trigger, r.took, r.error])).toEqual([
      ["backfill", "failed", "cli", "00:01:00", "connection reset"],
      ["reconcile", "ok", "schedule", "00:00:10", null],
      ["sync", "partial", "cli", "00:01:30", null],
    ]);
  });
});

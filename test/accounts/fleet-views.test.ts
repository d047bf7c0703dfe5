/**
 * BI across the fleet (issue 38): `migrate` keeps schema regwatch_fleet's views (each account's
 * v_* data views with an account column, a UNION ALL over the accounts) in step with the accounts
 * file, and `grant-reader ROLE --fleet` lets a role read them, and each account's data, in one
 * query over every account, never sign-in data or alert targets.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_VIEWS } from "../../src/db/reader-classes.ts";
import { pieceOf } from "../../src/fleet/sql/view-pieces.ts";
import { runCli } from "../helpers/cli.ts";
import { createEmptyDatabase } from "../helpers/db.ts";

const dir = mkdtempSync(path.join(tmpdir(), "regwatch-fleet-views-"));
const file = path.join(dir, "accounts.yaml");
const entry = (name: string) =>
  `  - { name: ${name}, watch_url: "http://127.0.0.1:9/v2", api_key_env: ${name.toUpperCase()}_KEY }\n`;
const role = `regwatch_fleet_bi_${randomBytes(4).toString("hex")}`;

let database: { url: string; drop(): Promise<void> };
let sql: postgres.Sql;
let env: Record<string, string>;

beforeAll(async () => {
  database = await createEmptyDatabase();
  sql = postgres(database.url, { max: 1, onnotice: () => {} });
  await sql.unsafe(`create role "${role}" nologin`);
  env = { DATABASE_URL: database.url, REGWATCH_ACCOUNTS_FILE: file };
});
afterAll(async () => {
  await sql?.end();
  await database?.drop();
  const admin = postgres(database.url.replace(/\/[^/?]+(\?|$)/, "/postgres$1"), {
    max: 1,
    onnotice: () => {},
  });
  await admin.unsafe(`drop role if exists "${role}"`);
  await admin.end();
});

async function migrate(...names: string[]): Promise<string> {
  writeFileSync(file, `accounts:\n${names.map(entry).join("")}`);
  const result = await runCli(["migrate"], env);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout;
}

/** Runs `query` as the reader role: its rows, or "denied" when a privilege is missing. */
async function asReader(query: string): Promise<unknown[] | "denied"> {
  const reserved = await sql.reserve();
  try {
    await reserved`begin`;
    await reserved.unsafe(`set local role "${role}"`);
    return [...(await reserved.unsafe(query))];
  } catch (error) {
    if ((error as { code?: string }).code === "42501") return "denied";
    throw error;
  } finally {
    await reserved`rollback`;
    reserved.release();
  }
}

async function fleetUsage(): Promise<{ account: string; requests: number }[]> {
  return sql<{ account: string; requests: number }[]>`
    select account, sum(requests)::int as requests from regwatch_fleet.v_api_usage_monthly
    group by account order by account`;
}

describe("regwatch_fleet", () => {
  it("holds every data view over every account, with an account column", async () => {
    expect(await migrate("a", "b")).toContain("fleet views (schema regwatch_fleet) show 2 account(s)");
    const views = await sql<{ name: string }[]>`
      select table_name as name from information_schema.views where table_schema = 'regwatch_fleet'
      order by table_name`;
    expect(views.map((v) => v.name)).toEqual([...DATA_VIEWS].sort());
    for (const [account, requests] of [
      ["a", 3],
      ["b", 5],
    ] as const) {
      await sql.unsafe(
        `insert into regwatch_${account}.api_usage (day, api, endpoint, requests) values (current_date, 'watch', 'GET /v2/lists', ${requests})`,
      );
    }
    expect(await fleetUsage()).toEqual([
      { account: "a", requests: 3 },
      { account: "b", requests: 5 },
    ]);
    // Each fleet view has the account's view's columns after `account`.
    const [columns] = await sql<{ fleet: string[]; own: string[] }[]>`
      select array(select column_name::text from information_schema.columns
                   where table_schema = 'regwatch_fleet' and table_name = 'v_bank_account_changes'
                   order by ordinal_position) as fleet,
             array(select column_name::text from information_schema.columns
                   where table_schema = 'regwatch_a' and table_name = 'v_bank_account_changes'
                   order by ordinal_position) as own`;
    expect(columns!.fleet).toEqual(["account", ...columns!.own]);
  });

  it("follows the accounts file: a removed account leaves the views, an added one joins them", async () => {
    expect(await migrate("a")).toContain("show 1 account(s)");
    expect(await fleetUsage()).toEqual([{ account: "a", requests: 3 }]);
    await migrate("a", "b", "c");
    expect((await fleetUsage()).map((r) => r.account)).toEqual(["a", "b"]);
    const [c] = await sql<{ n: number }[]>`
      select count(*)::int as n from regwatch_fleet.v_changes where account = 'c'`;
    expect(c!.n).toBe(0);
  });
});

describe("grant-reader --fleet", () => {
  it("reads every account in one query, and neither sign-in data nor alert targets of any", async () => {
    expect(await asReader("select * from regwatch_fleet.v_api_usage_monthly")).toBe("denied");
    const both = await runCli(["grant-reader", role, "--fleet", "--account", "a"], env);
    expect(both.code).toBe(64);
    const granted = await runCli(["grant-reader", role, "--fleet"], env);
    expect(granted.stderr).toBe("");
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain("over 3 account(s)");

    const usage = await asReader(
      "select account, sum(requests)::int as requests from regwatch_fleet.v_api_usage_monthly group by account order by account",
    );
    expect(usage).toEqual([
      { account: "a", requests: 3 },
      { account: "b", requests: 5 },
    ]);
    // The bank-account dashboard of every client is one query (the views call functions that
    // read the account's data as the reader, which the grant covers).
    for (const view of DATA_VIEWS)
      expect(await asReader(`select * from regwatch_fleet.${view}`)).not.toBe("denied");

    for (const schema of ["regwatch_a", "regwatch_b", "regwatch_c"]) {
      expect(await asReader(`select * from ${schema}.console_users`)).toBe("denied");
      expect(await asReader(`select * from ${schema}.console_sessions`)).toBe("denied");
      expect(await asReader(`select target from ${schema}.alert_rules`)).toBe("denied");
      expect(await asReader(`select target from ${schema}.alert_deliveries`)).toBe("denied");
    }
    // The home schema is no account's: nothing of it was granted.
    expect(await asReader("select * from regwatch.runs")).toBe("denied");
  });

  it("an account added later is readable after the next migrate, its private tables still not", async () => {
    await migrate("a", "b", "c", "d");
    await sql.unsafe(
      `insert into regwatch_d.api_usage (day, api, endpoint, requests) values (current_date, 'watch', 'GET /v2/lists', 7)`,
    );
    const usage = await asReader(
      "select sum(requests)::int as requests from regwatch_fleet.v_api_usage_monthly where account = 'd'",
    );
    expect(usage).toEqual([{ requests: 7 }]);
    expect(await asReader("select * from regwatch_fleet.v_bank_accounts where account = 'd'")).toEqual([]);
    expect(await asReader("select * from regwatch_d.console_users")).toBe("denied");
  });
});

/**
 * Each relation's row version in the catalog: a view's definition (a rewritten view gets a new
 * pg_rewrite row; a grant on it changes its pg_class row only), any other relation's pg_class row.
 */
async function versions(schemas: readonly string[]): Promise<Map<string, string>> {
  const rows = await sql<{ name: string; version: string }[]>`
    select n.nspname || '.' || c.relname as name,
           coalesce((select string_agg(r.xmin::text, ',') from pg_rewrite r where r.ev_class = c.oid),
                    c.xmin::text) as version
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = any(${schemas as string[]}::text[])`;
  return new Map(rows.map((r) => [r.name, r.version]));
}

function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...new Set([...before.keys(), ...after.keys()])]
    .filter((name) => before.get(name) !== after.get(name))
    .sort();
}

describe("adding an account to a migrated fleet", () => {
  const fleet = ["regwatch_fleet", "regwatch_fleet_parts"];
  const accounts = ["a", "b", "c", "d"];
  const schemas = accounts.map((a) => `regwatch_${a}`);

  it("a migrate with the file unchanged writes no fleet view and no account's schema", async () => {
    await migrate(...accounts);
    const before = await versions([...fleet, ...schemas]);
    const again = await migrate(...accounts);
    for (const schema of schemas) expect(again).toContain(`schema ${schema} is up to date`);
    expect(changed(before, await versions([...fleet, ...schemas]))).toEqual([]);
  });

  it("rewrites only the new account's piece of each view, leaves the others alone, and shows it", async () => {
    const before = await versions([...fleet, ...schemas]);
    expect(await migrate(...accounts, "e")).toContain("schema regwatch_e: applied");
    const after = await versions([...fleet, ...schemas]);
    const piece = String(pieceOf("e")).padStart(2, "0");
    const rewritten = changed(before, after);
    // No relation of another account's schema, and no piece but e's (its view too, when the piece is new).
    expect(rewritten.filter((name) => !name.startsWith("regwatch_fleet"))).toEqual([]);
    expect(rewritten.filter((name) => name.startsWith("regwatch_fleet_parts.")).sort()).toEqual(
      DATA_VIEWS.map((view) => `regwatch_fleet_parts.${view}_${piece}`).sort(),
    );
    const piecesOfOthers = new Set(["a", "b", "c", "d"].map((a) => pieceOf(a)));
    const tops = rewritten.filter((name) => name.startsWith("regwatch_fleet."));
    expect(tops).toEqual(
      piecesOfOthers.has(pieceOf("e")) ? [] : DATA_VIEWS.map((v) => `regwatch_fleet.${v}`).sort(),
    );

    await sql.unsafe(
      `insert into regwatch_e.api_usage (day, api, endpoint, requests) values (current_date, 'watch', 'GET /v2/lists', 11)`,
    );
    expect(await fleetUsage()).toContainEqual({ account: "e", requests: 11 });
    // The fleet reader reads the new account through the views too.
    const usage = await asReader(
      "select sum(requests)::int as requests from regwatch_fleet.v_api_usage_monthly where account = 'e'",
    );
    expect(usage).toEqual([{ requests: 11 }]);
  });

  it("a view rewritten by an older release (one UNION over every account) is replaced by pieces", async () => {
    await sql.unsafe("drop view regwatch_fleet.v_coverage");
    await sql.unsafe(
      "create view regwatch_fleet.v_coverage as select 'a'::text as account, v.* from regwatch_a.v_coverage v",
    );
    await migrate(...accounts, "e");
    const [row] = await sql<{ accounts: number }[]>`
      select count(*)::int as accounts from pg_depend d join pg_rewrite r on r.oid = d.objid
      join pg_class c on c.oid = d.refobjid join pg_namespace n on n.oid = c.relnamespace
      where r.ev_class = 'regwatch_fleet.v_coverage'::regclass and n.nspname = 'regwatch_fleet_parts'`;
    expect(row!.accounts).toBeGreaterThan(0);
  });
});

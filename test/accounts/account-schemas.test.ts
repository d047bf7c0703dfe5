/**
 * `regwatch migrate` with an accounts file: schema regwatch and one schema per account, each
 * identical to regwatch's (tables, columns, views, functions, indexes, constraints, triggers,
 * compared from the catalogue with the schema's name taken out); an account added later is
 * migrated by the next run. `grant-reader --account` opens one account's schema and no other.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { createEmptyDatabase } from "../helpers/db.ts";

const dir = mkdtempSync(path.join(tmpdir(), "regwatch-account-schemas-"));
const file = path.join(dir, "accounts.yaml");
const entry = (name: string) =>
  `  - { name: ${name}, watch_url: "http://127.0.0.1:9/v2", api_key_env: ${name.toUpperCase()}_KEY }\n`;

const role = `regwatch_acct_bi_${randomBytes(4).toString("hex")}`;
let database: { url: string; drop(): Promise<void> };
let sql: postgres.Sql;

beforeAll(async () => {
  database = await createEmptyDatabase();
  sql = postgres(database.url, { max: 1, onnotice: () => {} });
  await sql.unsafe(`create role "${role}" nologin`);
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

/** Everything a schema defines, as lines, with its own name replaced by `@`. */
async function catalogue(schema: string): Promise<string[]> {
  const rows = await sql<{ line: string }[]>`
    select 'column ' || table_name || '.' || column_name || ' ' || udt_name || ' ' || is_nullable
           || ' ' || coalesce(column_default, '') as line
      from information_schema.columns where table_schema = ${schema}
    union all
    select 'view ' || viewname || ' ' || definition from pg_views where schemaname = ${schema}
    union all
    select 'function ' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ') '
           || pg_get_functiondef(p.oid)
      from pg_proc p where p.pronamespace = ${schema}::regnamespace
    union all
    select 'index ' || indexname || ' ' || indexdef from pg_indexes where schemaname = ${schema}
    union all
    select 'constraint ' || c.conrelid::regclass::text || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid)
      from pg_constraint c where c.connamespace = ${schema}::regnamespace
    union all
    select 'trigger ' || t.tgname || ' ' || pg_get_triggerdef(t.oid)
      from pg_trigger t join pg_class r on r.oid = t.tgrelid
     where r.relnamespace = ${schema}::regnamespace and not t.tgisinternal
    union all
    select 'comment ' || c.relname || ' ' || coalesce(obj_description(c.oid, 'pg_class'), '')
      from pg_class c where c.relnamespace = ${schema}::regnamespace and c.relkind in ('r', 'v', 'm')`;
  const own = new RegExp(`"?\\b${schema}\\b"?(?=\\.)`, "g");
  return rows.map((r) => r.line.replace(own, "@")).sort();
}

async function schemas(): Promise<string[]> {
  const rows = await sql<{ nspname: string }[]>`
    select nspname from pg_namespace where nspname like 'regwatch%' order by nspname`;
  return rows.map((r) => r.nspname);
}

describe("migrate with an accounts file", () => {
  it("migrates regwatch and every account's schema, each identical to regwatch", async () => {
    writeFileSync(file, `accounts:\n${entry("a")}${entry("b")}`);
    // No key variable is set: migrating calls no registry and needs none.
    const result = await runCli(["migrate"], { DATABASE_URL: database.url, REGWATCH_ACCOUNTS_FILE: file });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^schema regwatch: applied \d+ migration\(s\)$/m);
    expect(result.stdout).toMatch(/^schema regwatch_a: applied \d+ migration\(s\)$/m);
    expect(result.stdout).toMatch(/^schema regwatch_b: applied \d+ migration\(s\)$/m);
    // regwatch_fleet holds the fleet's views, regwatch_fleet_parts their pieces.
    expect(await schemas()).toEqual([
      "regwatch",
      "regwatch_a",
      "regwatch_b",
      "regwatch_fleet",
      "regwatch_fleet_parts",
    ]);
    // The job queue's schema is installed by the same command.
    const [queue] = await sql<{ ok: boolean }[]>`select to_regnamespace('graphile_worker') is not null as ok`;
    expect(queue?.ok).toBe(true);

    const home = await catalogue("regwatch");
    expect(home.filter((l) => l.startsWith("column ")).length).toBeGreaterThan(100);
    expect(home.some((l) => l.startsWith("view v_changes "))).toBe(true);
    expect(home.some((l) => l.startsWith("function business_as_of("))).toBe(true);
    expect(await catalogue("regwatch_a")).toEqual(home);
    expect(await catalogue("regwatch_b")).toEqual(home);
  });

  it("migrates an account added to the file at the next run, the others found current", async () => {
    writeFileSync(file, `accounts:\n${entry("a")}${entry("b")}${entry("c")}`);
    const result = await runCli(["migrate"], { DATABASE_URL: database.url, REGWATCH_ACCOUNTS_FILE: file });
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split("\n")).toEqual([
      "job queue (schema graphile_worker) is up to date",
      "schema regwatch is up to date",
      "schema regwatch_a is up to date",
      "schema regwatch_b is up to date",
      expect.stringMatching(/^schema regwatch_c: applied \d+ migration\(s\)$/),
      "fleet views (schema regwatch_fleet) show 3 account(s)",
    ]);
    expect(await catalogue("regwatch_c")).toEqual(await catalogue("regwatch"));
  });
});

describe("migrate and the registry's zone", () => {
  it("writes REGWATCH_REGISTRY_TZ into every schema whose views count days in another zone", async () => {
    const zones = async () => {
      const rows = await sql<{ zone: string }[]>`
        select regwatch.registry_zone() || ' ' || regwatch_a.registry_zone() || ' ' ||
               regwatch_b.registry_zone() || ' ' || regwatch_c.registry_zone() as zone`;
      return rows[0]?.zone;
    };
    expect(await zones()).toBe("Europe/Budapest Europe/Budapest Europe/Budapest Europe/Budapest");
    const env = { DATABASE_URL: database.url, REGWATCH_ACCOUNTS_FILE: file };
    const helsinki = await runCli(["migrate"], { ...env, REGWATCH_REGISTRY_TZ: "Europe/Helsinki" });
    expect(helsinki.stderr).toBe("");
    expect(helsinki.code).toBe(0);
    expect(await zones()).toBe("Europe/Helsinki Europe/Helsinki Europe/Helsinki Europe/Helsinki");
    expect((await runCli(["migrate"], env)).code).toBe(0);
    expect(await zones()).toBe("Europe/Budapest Europe/Budapest Europe/Budapest Europe/Budapest");
  });
});

describe("grant-reader --account", () => {
  async function canRead(schema: string): Promise<boolean | string> {
    const reserved = await sql.reserve();
    try {
      await reserved`begin`;
      await reserved.unsafe(`set local role "${role}"`);
      await reserved.unsafe(`select * from ${schema}.runs limit 1`);
      return true;
    } catch (error) {
      return (error as { code?: string }).code === "42501" ? false : String(error);
    } finally {
      await reserved`rollback`;
      reserved.release();
    }
  }

  it("lets the role read the account's schema and no other", async () => {
    const env = { DATABASE_URL: database.url, REGWATCH_ACCOUNTS_FILE: file };
    const unnamed = await runCli(["grant-reader", role], env);
    expect(unnamed.code).toBe(64);
    expect(unnamed.stderr).toContain("--account NAME is required: 3 accounts (a, b, c)");

    const granted = await runCli(["grant-reader", role, "--account", "a"], env);
    expect(granted.stderr).toBe("");
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain("may now read the data of schema regwatch_a");
    expect(await canRead("regwatch_a")).toBe(true);
    expect(await canRead("regwatch_b")).toBe(false);
    expect(await canRead("regwatch_c")).toBe(false);
    expect(await canRead("regwatch")).toBe(false);
  });
});

import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baselineFromDump } from "../../scripts/migration-baseline.ts";
import { MIGRATIONS_FOLDER, migrateSchema } from "../../src/db/migrate.ts";
import { type Baseline, baselineFor, readBaseline } from "../../src/db/migration-baseline.ts";
import { readMigrations } from "../../src/db/migration-files.ts";
import { catalogFingerprint } from "../helpers/catalog-fingerprint.ts";
import { createEmptyDatabase } from "../helpers/db.ts";

const migrations = readMigrations(MIGRATIONS_FOLDER);
const shipped = readBaseline(MIGRATIONS_FOLDER);

describe("the migrations' baseline", () => {
  let target: Awaited<ReturnType<typeof createEmptyDatabase>>;
  let sql: postgres.Sql;
  let replayed: string[];

  beforeAll(async () => {
    target = await createEmptyDatabase();
    sql = postgres(target.url, { max: 2, onnotice: () => {} });
    const outcome = await migrateSchema(sql, "regwatch_replayed", migrations, { baseline: null });
    expect(outcome).toEqual({ applied: migrations.length, fromBaseline: false });
    replayed = await catalogFingerprint(sql, "regwatch_replayed");
  });
  afterAll(async () => {
    await sql.end();
    await target.drop();
  });

  it("stands for every shipped migration (after adding one, run `npm run db:baseline`)", () => {
    expect(shipped, "migrations/baseline.sql is missing: run `npm run db:baseline`").toBeDefined();
    expect(
      baselineFor(shipped, migrations)?.covers,
      "migrations/baseline.sql is not of the shipped migrations: run `npm run db:baseline`",
    ).toBe(migrations.length);
  });

  it("builds a fresh schema exactly as the migrations build it, and records every migration", async () => {
    const outcome = await migrateSchema(sql, "regwatch_based", migrations);
    expect(outcome).toEqual({ applied: migrations.length, fromBaseline: true });
    expect(replayed.length).toBeGreaterThan(1000);
    expect(await catalogFingerprint(sql, "regwatch_based")).toEqual(replayed);
    const journal = (schema: string) =>
      sql`select hash, created_at from drizzle.${sql(`__drizzle_migrations_${schema}`)} order by id`;
    expect(await journal("regwatch_based")).toEqual(await journal("regwatch_replayed"));
    expect((await migrateSchema(sql, "regwatch_based", migrations)).applied).toBe(0);
  });

  it("is compared closely enough that one missing comment shows", async () => {
    const base = shipped as Baseline;
    const last = base.sql.lastIndexOf("COMMENT ON COLUMN");
    const cut = base.sql.indexOf(";\n", last) + 2;
    const doctored = { ...base, sql: base.sql.slice(0, last) + base.sql.slice(cut) };
    await migrateSchema(sql, "regwatch_doctored", migrations, { baseline: doctored });
    const got = await catalogFingerprint(sql, "regwatch_doctored");
    expect(replayed.filter((line) => !got.includes(line))).toEqual([
      expect.stringMatching(/^comment table column /),
    ]);
  });

  it("is not used for migrations other than those it was written from", async () => {
    const other = { ...(shipped as Baseline), hash: "0".repeat(64) };
    const outcome = await migrateSchema(sql, "regwatch_other", migrations, { baseline: other });
    expect(outcome.fromBaseline).toBe(false);
    expect(await catalogFingerprint(sql, "regwatch_other")).toEqual(replayed);
  });

  it("is not used for a schema that has migrations already: the rest are replayed", async () => {
    await migrateSchema(sql, "regwatch_older", migrations.slice(0, -3));
    const outcome = await migrateSchema(sql, "regwatch_older", migrations);
    expect(outcome).toEqual({ applied: 3, fromBaseline: false });
    expect(await catalogFingerprint(sql, "regwatch_older")).toEqual(replayed);
  });

  it("starts from itself for a list it covers only the first migrations of", async () => {
    const next = {
      tag: "9999_next",
      sql: ["CREATE TABLE regwatch.later (id int)"],
      hash: "x",
      folderMillis: 9e15,
    };
    const outcome = await migrateSchema(sql, "regwatch_later", [...migrations, next]);
    expect(outcome).toEqual({ applied: migrations.length + 1, fromBaseline: true });
    const [found] = await sql`select to_regclass('regwatch_later.later') is not null as found`;
    expect(found?.found).toBe(true);
  });
});

describe("the baseline from pg_dump's output", () => {
  const header = `-- covers 1 migrations, through 0000_x\n-- hash ${"a".repeat(64)}\n`;
  const dump = [
    "--",
    "-- PostgreSQL database dump",
    "--",
    "\\restrict abc",
    "SET statement_timeout = 0;",
    "SELECT pg_catalog.set_config('search_path', '', false);",
    "",
    "--",
    "-- Name: regwatch; Type: SCHEMA; Schema: -; Owner: -",
    "--",
    "",
    "CREATE SCHEMA regwatch;",
    "",
    "CREATE FUNCTION regwatch.f() RETURNS int LANGUAGE sql AS $$",
    "-- a comment of the body",
    "SELECT 1 $$;",
    "\\unrestrict abc",
  ].join("\n");

  it("keeps the statements and the bodies, and drops the settings, psql's commands and pg_dump's names", () => {
    const text = baselineFromDump(dump, header);
    expect(text.startsWith(header)).toBe(true);
    expect(text).toContain("CREATE SCHEMA regwatch;\n\nCREATE FUNCTION regwatch.f()");
    expect(text).toContain("-- a comment of the body\nSELECT 1 $$;\n");
    expect(text).not.toMatch(/SET statement_timeout|set_config|\\restrict|\\unrestrict|-- Name:/);
  });

  it("refuses a session setting after the header, which would outlive the migration behind a pooler", () => {
    expect(() => baselineFromDump(`${dump}\nSET default_tablespace = '';\n`, header)).toThrow(
      /session setting inside the dump: SET default_tablespace/,
    );
  });
});

/**
 * The classification of what readers read, against the migrated schema: every table and view is
 * classified (a migration adding one fails here until it is), no data view shows a private table
 * or column, and a reader an earlier release granted everything keeps the data, gains the data
 * tables later migrations add, and loses sign-in data and alert targets once `migrate` runs.
 */
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMigrations } from "../../src/db/migrate.ts";
import {
  PRIVATE_COLUMNS,
  PRIVATE_TABLES,
  readerClassOf,
  readerGrantPlan,
} from "../../src/db/reader-classes.ts";
import { scopedSql } from "../../src/db/scoped-sql.ts";
import { judgeReaders } from "../../src/doctor/judge-database.ts";
import { readerRoles } from "../../src/doctor/sql/reader-health.ts";
import { createEmptyDatabase, createTestDatabase, sqlState, type TestDatabase } from "../helpers/db.ts";
import { migrationsBefore } from "../helpers/migrations-before.ts";

let test: TestDatabase;

beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(async () => test?.drop());

describe("what readers read", () => {
  it("classifies every table and view of the migrated schema", async () => {
    const relations = await test.db.sql<{ name: string }[]>`
      select relname as name from pg_class
      where relnamespace = 'regwatch'::regnamespace and relkind in ('r', 'p', 'v', 'm') order by relname`;
    expect(relations.length).toBeGreaterThan(40);
    // What the grants withhold from readers is only what is named private, never a relation forgotten.
    const { withheld } = readerGrantPlan(
      relations.map((r) => r.name),
      () => [],
    );
    expect(withheld.filter((name) => !(name in PRIVATE_TABLES))).toEqual([]);
    for (const [table, columns] of Object.entries(PRIVATE_COLUMNS)) {
      const present = await test.db.sql<{ column: string }[]>`
        select column_name as column from information_schema.columns
        where table_schema = 'regwatch' and table_name = ${table}`;
      expect(
        present.map((c) => c.column),
        table,
      ).toEqual(expect.arrayContaining([...columns]));
    }
  });

  it("no data view shows a private table or column", async () => {
    const used = await test.db.sql<{ view: string; table: string; column: string }[]>`
      select view_name as view, table_name as table, column_name as column
      from information_schema.view_column_usage where view_schema = 'regwatch'`;
    const leaks = used.filter(
      (u) =>
        readerClassOf(u.view) === "data" &&
        (u.table in PRIVATE_TABLES || (PRIVATE_COLUMNS[u.table] ?? []).includes(u.column)),
    );
    expect(leaks).toEqual([]);
  });

  it("an earlier release's reader loses private access on migrate and gains new data tables", async () => {
    const target = await createEmptyDatabase();
    const older = await migrationsBefore("0025_fleet_workers");
    const role = `regwatch_old_bi_${randomBytes(4).toString("hex")}`;
    const sql = postgres(target.url, { max: 1, onnotice: () => {} });
    try {
      await migrate(drizzle(sql), { migrationsFolder: older });
      // What grant-reader did before: every table, and every table created later.
      await sql.unsafe(`create role "${role}" nologin`);
      await sql.unsafe(`grant usage on schema regwatch to "${role}"`);
      await sql.unsafe(`grant select on all tables in schema regwatch to "${role}"`);
      await sql.unsafe(`alter default privileges in schema regwatch grant select on tables to "${role}"`);
      await runMigrations(target.url);

      const as = async (statement: string) =>
        sqlState(
          sql.begin(async (tx) => {
            await tx.unsafe(`set local role "${role}"`);
            await tx.unsafe(statement);
          }),
        );
      // 0025 added worker_heartbeats (data); 0026 console_user_accounts (private).
      expect(await as("select * from regwatch.worker_heartbeats")).toBeUndefined();
      expect(await as("select * from regwatch.changes")).toBeUndefined();
      expect(await as("select * from regwatch.v_changes")).toBeUndefined();
      for (const table of [
        "console_users",
        "console_sessions",
        "console_login_failures",
        "console_user_accounts",
      ])
        expect(await as(`select * from regwatch.${table}`), table).toBe("42501");
      expect(await as("select target from regwatch.alert_rules")).toBe("42501");
      expect(await as("select name from regwatch.alert_rules")).toBeUndefined();

      const schemaSql = postgres(target.url, { max: 1, onnotice: () => {} });
      try {
        const readers = await readerRoles(scopedSql(schemaSql, "regwatch"));
        expect(readers).toEqual([{ role, unreadable: [], exposed: [] }]);
        expect(judgeReaders(readers).status).toBe("ok");
      } finally {
        await schemaSql.end();
      }
    } finally {
      await sql.end();
      await target.drop();
      // Its privileges went with the database; the role is the server's.
      await test.db.sql.unsafe(`drop role if exists "${role}"`);
      await rm(older, { recursive: true, force: true });
    }
  });
});

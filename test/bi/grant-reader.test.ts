import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let test: TestDatabase;
// Roles are shared by the whole server: a random name keeps parallel runs apart.
const role = `regwatch_bi_${randomBytes(4).toString("hex")}`;

beforeAll(async () => {
  test = await createTestDatabase();
  await test.db.sql.unsafe(`create role "${role}" nologin`);
});
afterAll(async () => {
  if (test) {
    await test.db.sql.unsafe(`drop owned by "${role}"`);
    await test.db.sql.unsafe(`drop role if exists "${role}"`);
    await test.drop();
  }
});

/** Runs `fn` in a transaction acting as the BI role, rolled back afterwards. */
async function asReader<T>(fn: (sql: TestDatabase["db"]["sql"]) => Promise<T>): Promise<T> {
  const reserved = await test.db.sql.reserve();
  try {
    await reserved`begin`;
    await reserved.unsafe(`set local role "${role}"`);
    return await fn(reserved as unknown as TestDatabase["db"]["sql"]);
  } finally {
    await reserved`rollback`;
    reserved.release();
  }
}

async function sqlState(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe("regwatch grant-reader", () => {
  it("refuses a malformed role name (64) and a role that does not exist (1)", async () => {
    const malformed = await runCli(["grant-reader", 'bi"; drop schema regwatch; --'], {
      DATABASE_URL: test.url,
    });
    expect(malformed.code).toBe(64);
    expect(malformed.stderr).toContain("role name");
    const reserved = await runCli(["grant-reader", "pg_read_all_data"], { DATABASE_URL: test.url });
    expect(reserved.code).toBe(64);
    const missing = await runCli(["grant-reader", "no_such_role_here"], { DATABASE_URL: test.url });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('role "no_such_role_here" does not exist; create it first');
  });

  it("lets the role read every table and view, and nothing more", async () => {
    const granted = await runCli(["grant-reader", role], { DATABASE_URL: test.url });
    expect(granted.stderr).toBe("");
    expect(granted.code).toBe(0);

    const relations = await test.db.sql<{ name: string; kind: string }[]>`
      select c.relname as name, c.relkind as kind from pg_class c
      where c.relnamespace = 'regwatch'::regnamespace and c.relkind in ('r', 'v') order by c.relname`;
    expect(relations.filter((r) => r.kind === "v").map((r) => r.name)).toEqual(
      expect.arrayContaining([
        "v_changes",
        "v_coverage",
        "v_watch_status",
        "v_business_names",
        "v_item_failures",
      ]),
    );
    await asReader(async (sql) => {
      for (const { name } of relations) await sql.unsafe(`select * from regwatch."${name}" limit 1`);
    });

    expect(
      await sqlState(asReader((sql) => sql`insert into regwatch.desired_lists (list_name) values ('x')`)),
    ).toBe("42501");
    expect(await sqlState(asReader((sql) => sql`update regwatch.desired_items set note = 'x'`))).toBe(
      "42501",
    );
    expect(await sqlState(asReader((sql) => sql`delete from regwatch.changes`))).toBe("42501");
    expect(await sqlState(asReader((sql) => sql`create table regwatch.mine (x int)`))).toBe("42501");
  });

  it("covers tables created after the grant, and can be run again", async () => {
    await test.db.sql`create table regwatch.added_later (x int)`;
    await test.db.sql`insert into regwatch.added_later values (1)`;
    const rows = await asReader((sql) => sql`select x from regwatch.added_later`);
    expect(rows).toEqual([{ x: 1 }]);
    await test.db.sql`drop table regwatch.added_later`;
    const again = await runCli(["grant-reader", role], { DATABASE_URL: test.url });
    expect(again.code).toBe(0);
  });
});

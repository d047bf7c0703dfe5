import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readerClassOf } from "../../src/db/reader-classes.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, sqlState, type TestDatabase } from "../helpers/db.ts";

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

  it("lets the role read the data tables and views, never sign-in data or alert targets", async () => {
    const granted = await runCli(["grant-reader", role], { DATABASE_URL: test.url });
    expect(granted.stderr).toBe("");
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain("alert_rules without target");
    expect(granted.stdout).toMatch(
      /not readable: console_login_addresses, console_login_failures, console_oidc_logins, console_sessions, console_user_accounts, console_users, held_uploads, key_refusals, reader_roles/,
    );

    const relations = await test.db.sql<{ name: string; kind: string }[]>`
      select c.relname as name, c.relkind as kind from pg_class c
      where c.relnamespace = 'regwatch'::regnamespace and c.relkind in ('r', 'v') order by c.relname`;
    expect(relations.filter((r) => r.kind === "v").map((r) => r.name)).toEqual(
      expect.arrayContaining([
        "v_changes",
        "v_coverage",
        "v_watch_status",
        "v_business_names",
        "v_open_alerts",
      ]),
    );
    const data = relations.filter((r) => readerClassOf(r.name) === "data");
    expect(data.map((r) => r.name)).toEqual(expect.arrayContaining(["changes", "runs", "v_changes"]));
    await asReader(async (sql) => {
      for (const { name } of data) await sql.unsafe(`select * from regwatch."${name}" limit 1`);
      await sql`select id, name, channel, lists, headings, digest from regwatch.alert_rules`;
      await sql`select id, message_id, status, attempts, last_error from regwatch.alert_deliveries`;
      await sql`select id, rule_id, at, by, action, note from regwatch.alert_events`;
    });

    for (const table of [
      "console_users",
      "console_sessions",
      "console_login_failures",
      "console_login_addresses",
      "console_user_accounts",
      "console_oidc_logins",
      "reader_roles",
    ]) {
      expect(await sqlState(asReader((sql) => sql.unsafe(`select * from regwatch.${table}`))), table).toBe(
        "42501",
      );
      expect(
        await sqlState(asReader((sql) => sql.unsafe(`select count(*) from regwatch.${table}`))),
        table,
      ).toBe("42501");
    }
    for (const [table, column] of [
      ["alert_rules", "target"],
      ["alert_deliveries", "target"],
      ["alert_deliveries", "recipients"],
      ["alert_events", "details"],
    ] as const) {
      expect(
        await sqlState(asReader((sql) => sql.unsafe(`select ${column} from regwatch.${table}`))),
        column,
      ).toBe("42501");
    }

    expect(
      await sqlState(asReader((sql) => sql`insert into regwatch.desired_lists (list_name) values ('x')`)),
    ).toBe("42501");
    expect(await sqlState(asReader((sql) => sql`update regwatch.desired_items set note = 'x'`))).toBe(
      "42501",
    );
    expect(await sqlState(asReader((sql) => sql`delete from regwatch.changes`))).toBe("42501");
    expect(await sqlState(asReader((sql) => sql`create table regwatch.mine (x int)`))).toBe("42501");
    const [recorded] = await test.db.sql`select role from regwatch.reader_roles where role = ${role}`;
    expect(recorded).toEqual({ role });
  });

  it("takes back what was granted beyond the data when run again, and gives no table made by hand", async () => {
    await test.db.sql.unsafe(`grant select on regwatch.console_users to "${role}"`);
    await test.db.sql.unsafe(
      `alter default privileges in schema regwatch grant select on tables to "${role}"`,
    );
    await test.db.sql`create table regwatch.added_by_hand (x int)`;
    expect(await sqlState(asReader((sql) => sql`select x from regwatch.added_by_hand`))).toBeUndefined();
    await test.db.sql`drop table regwatch.added_by_hand`;
    const again = await runCli(["grant-reader", role], { DATABASE_URL: test.url });
    expect(again.code).toBe(0);
    expect(await sqlState(asReader((sql) => sql`select * from regwatch.console_users`))).toBe("42501");
    await test.db.sql`create table regwatch.added_by_hand (x int)`;
    expect(await sqlState(asReader((sql) => sql`select x from regwatch.added_by_hand`))).toBe("42501");
    await test.db.sql`drop table regwatch.added_by_hand`;
  });
});

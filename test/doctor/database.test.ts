/**
 * The doctor's database checks, each failing alone: a migration not applied (and not applied by
 * the doctor), a role that may only read, a server that accepts no writes, a reader role missing
 * a grant or reading sign-in data, and a database nobody answers at.
 */
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { grantReader } from "../../src/db/grants.ts";
import { closedPort, doctorWith, doctorWorld, notOk, resultOf } from "./harness.ts";

const world = doctorWorld(73);
const env = world.env;
const roles: string[] = [];

// Registered after the world's hooks, so it runs before them: roles belong to the server, and
// their grants go first, while their database is still there.
afterAll(async () => {
  for (const role of roles) await world.tdb.db.sql.unsafe(`drop owned by "${role}"; drop role "${role}"`);
});

/** What a role needs to run regwatch, short of the grants each test adds or takes away. */
const WRITER = [
  "grant usage, create on schema regwatch to ROLE",
  "grant usage on schema drizzle to ROLE",
  "grant select on all tables in schema drizzle to ROLE",
  "grant select, insert, update, delete on all tables in schema regwatch to ROLE",
  "grant usage on all sequences in schema regwatch to ROLE",
];

/** A login role of this test, with the statements given run for it; its URL on the test database. */
async function role(...grants: string[]): Promise<{ name: string; url: string }> {
  const name = `doctor_${randomBytes(4).toString("hex")}`;
  const password = randomBytes(9).toString("hex");
  roles.push(name);
  await world.tdb.db.sql.unsafe(`create role "${name}" login password '${password}'`);
  for (const grant of grants) await world.tdb.db.sql.unsafe(grant.replaceAll("ROLE", `"${name}"`));
  const url = new URL(world.tdb.url);
  url.username = name;
  url.password = password;
  return { name, url: url.toString() };
}

describe("regwatch doctor and the database", () => {
  it("fails a pending migration by name, says regwatch migrate, and does not apply it", async () => {
    const journal = JSON.parse(
      await readFile(new URL("../../migrations/meta/_journal.json", import.meta.url), "utf8"),
    ) as { entries: { tag: string }[] };
    const last = journal.entries.at(-1)!.tag;
    const [removed] = await world.tdb.db.sql<{ hash: string; created_at: string }[]>`
      delete from drizzle.__drizzle_migrations
      where id = (select max(id) from drizzle.__drizzle_migrations) returning hash, created_at::text`;
    try {
      const results = await doctorWith(env());
      expect(notOk(results)).toEqual(["migrations: fail"]);
      const migrations = resultOf(results, "migrations");
      expect(migrations.message).toBe(
        `1 of ${journal.entries.length} migrations not applied (${last}); the doctor does not apply them`,
      );
      expect(migrations.next).toMatch(/^run `regwatch migrate`/);
      const [after] = await world.tdb.db.sql<
        { n: number }[]
      >`select count(*)::int as n from drizzle.__drizzle_migrations`;
      expect(after?.n).toBe(journal.entries.length - 1);
    } finally {
      await world.tdb.db.sql`
        insert into drizzle.__drizzle_migrations (hash, created_at) values (${removed!.hash}, ${removed!.created_at})`;
    }
  });

  it("warns when the database counts the registry's days in another zone than REGWATCH_REGISTRY_TZ", async () => {
    const results = await doctorWith(env({ REGWATCH_REGISTRY_TZ: "Europe/Helsinki" }));
    expect(notOk(results)).toEqual(["migrations: warn"]);
    const migrations = resultOf(results, "migrations");
    expect(migrations.message).toMatch(
      /but the views count the registry's days in Europe\/Budapest, not in REGWATCH_REGISTRY_TZ=Europe\/Helsinki$/,
    );
    expect(migrations.next).toMatch(/^run `regwatch migrate`/);
    const [zone] = await world.tdb.db.sql<{ zone: string }[]>`select regwatch.registry_zone() as zone`;
    expect(zone?.zone).toBe("Europe/Budapest");
  });

  it("fails a role that may only read, naming what it may not write", async () => {
    const reader = await role(
      `grant connect on database "${world.tdb.name}" to ROLE`,
      "grant usage on schema regwatch, drizzle to ROLE",
      "grant select on all tables in schema regwatch, drizzle to ROLE",
    );
    const results = await doctorWith(env({ DATABASE_URL: reader.url }));
    const writes = resultOf(results, "database writes");
    expect(writes.status).toBe("fail");
    expect(writes.message).toMatch(
      /^a test write \(rolled back\) was refused: permission denied for table api_usage \(SQLSTATE 42501\)$/,
    );
    expect(writes.next).toContain(
      `GRANT INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA regwatch TO "${reader.name}"`,
    );
    // Given SELECT on every table (as grant-reader did before), it is a reader role that reads
    // what readers must not: sign-in data and alert targets.
    const readers = resultOf(results, "reader roles");
    expect(readers.message).toBe(
      `${reader.name} can read alert_deliveries.target, alert_deliveries.recipients, alert_events.details, and 10 more: sign-in data or alert targets are not for readers`,
    );
    expect(readers.next).toBe(
      `run regwatch grant-reader ${reader.name} (as the schema's owner) again: it grants the data only and takes the rest back`,
    );
    expect(notOk(results)).toEqual(["database writes: fail", "reader roles: fail"]);
    expect(JSON.stringify(results)).not.toContain(new URL(reader.url).password);
    // Out of the later tests' way: a role without USAGE on the schema reads nothing.
    await world.tdb.db.sql.unsafe(`revoke usage on schema regwatch from "${reader.name}"`);
  });

  it("fails a role that may write some tables but not all, naming those", async () => {
    const partial = await role(
      `grant connect on database "${world.tdb.name}" to ROLE`,
      ...WRITER,
      "revoke delete on regwatch.watched_items from ROLE",
    );
    const results = await doctorWith(env({ DATABASE_URL: partial.url }));
    expect(notOk(results)).toEqual(["database writes: fail"]);
    expect(resultOf(results, "database writes").message).toBe(
      `role ${partial.name} may not write everything the runs write: watched_items (DELETE)`,
    );
  });

  it("fails a server that accepts no writes, though the role may write everything", async () => {
    const writer = await role(
      `grant connect on database "${world.tdb.name}" to ROLE`,
      ...WRITER,
      "alter role ROLE set default_transaction_read_only = on",
    );
    const results = await doctorWith(env({ DATABASE_URL: writer.url }));
    const writes = resultOf(results, "database writes");
    expect(writes.status).toBe("fail");
    expect(writes.message).toMatch(/read-only transaction \(SQLSTATE 25006\)$/);
    expect(writes.next).toMatch(/^connect to the primary server/);
  });

  it("warns when a reader role cannot read a table, naming the command that fixes it", async () => {
    const bi = await role(`grant connect on database "${world.tdb.name}" to ROLE`);
    await grantReader(world.tdb.db.sql, bi.name);
    await world.tdb.db.sql.unsafe(`revoke select on regwatch.changes from "${bi.name}"`);
    const results = await doctorWith(env());
    expect(notOk(results)).toEqual(["reader roles: warn"]);
    const readers = resultOf(results, "reader roles");
    expect(readers.message).toBe(`${bi.name} cannot read changes`);
    expect(readers.next).toBe(`run regwatch grant-reader ${bi.name} (as the schema's owner) again`);
    await grantReader(world.tdb.db.sql, bi.name);
    expect(resultOf(await doctorWith(env()), "reader roles")).toMatchObject({
      status: "ok",
      message: `${bi.name} can read every data table and view (sign-in data and alert targets withheld)`,
    });
  });

  it("fails a database nobody answers at, and the checks that need it", async () => {
    const dead = `postgres://regwatch:hunter2-secret@127.0.0.1:${await closedPort()}/regwatch`;
    const results = await doctorWith(env({ DATABASE_URL: dead }));
    expect(notOk(results)).toEqual([
      "database: fail",
      "migrations: fail",
      "database writes: fail",
      "reader roles: fail",
      "search quota: warn",
      "webhooks: warn",
    ]);
    expect(resultOf(results, "database").message).toMatch(/^not reachable: .*ECONNREFUSED/);
    expect(resultOf(results, "database").next).toMatch(/^check DATABASE_URL/);
    expect(JSON.stringify(results)).not.toContain("hunter2-secret");
  });
});

/**
 * One pool, many schemas (db/scoped-sql.ts): statements name their account's schema (`sql.t.x`),
 * so two accounts' statements on one connection never see each other's rows, directly and through
 * PgBouncer in transaction mode; a plain statement is sent alone (no BEGIN, no set_config: one
 * round trip), a transaction's body and its savepoints name the same schema, and no connection
 * has a search_path that would find an account's table named without its schema.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { scopedSql } from "../../src/db/scoped-sql.ts";
import { createEmptyDatabase } from "../helpers/db.ts";
import { type Bouncer, startPgBouncer } from "../helpers/pgbouncer.ts";

let database: { url: string; drop(): Promise<void> };
let bouncer: Bouncer;
/** What the pool sent, statement by statement (postgres.js's `debug` option). */
const sent: string[] = [];
let pool: postgres.Sql;

beforeAll(async () => {
  database = await createEmptyDatabase();
  // One connection: every statement of both schemas goes through it.
  pool = postgres(database.url, { max: 1, onnotice: () => {}, debug: (_c, query) => sent.push(query) });
  for (const schema of ["sa", "sb"]) {
    await pool.unsafe(`create schema ${schema}`);
    await pool.unsafe(`create table ${schema}.watch_lists (x int primary key)`);
  }
  bouncer = await startPgBouncer(inject("pgServerUrl"));
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await bouncer?.stop();
  await database?.drop();
});

const count = (sql: ReturnType<typeof scopedSql>) =>
  sql<{ n: number }[]>`select count(*)::int as n from ${sql.t.watch_lists}`.then((r) => r[0]!.n);

describe("statements that name their account's schema over a shared pool", () => {
  it("keeps each account's rows apart, interleaved on one connection", async () => {
    const a = scopedSql(pool, "sa");
    const b = scopedSql(pool, "sb");
    await Promise.all([
      a`insert into ${a.t.watch_lists} select generate_series(1, 10)`,
      b`insert into ${b.t.watch_lists} values (100)`,
      a`insert into ${a.t.watch_lists} values (11)`,
    ]);
    expect(await Promise.all([count(a), count(b)])).toEqual([11, 1]);
    const inTx = await b.begin(async (tx) => {
      await tx`insert into ${tx.t.watch_lists} values (101)`;
      return tx.savepoint((sp) => sp<{ n: number }[]>`select count(*)::int as n from ${sp.t.watch_lists}`);
    });
    expect(inTx[0]!.n).toBe(2);
    expect(a.schema).toBe("sa");
  });

  it("sends a plain statement alone: no transaction, no search_path", async () => {
    const a = scopedSql(pool, "sa");
    await count(a);
    sent.length = 0;
    const [row] = await a<{ max: number }[]>`select max(x)::int as max from ${a.t.watch_lists}`;
    expect(row!.max).toBe(11);
    expect(sent).toEqual(['select max(x)::int as max from "sa"."watch_lists"']);
  });

  it("leaves no search_path that finds an account's table unqualified", async () => {
    const [row] = await pool<{ found: string | null }[]>`select to_regclass('watch_lists')::text as found`;
    expect(row!.found).toBeNull();
    await expect(pool`select count(*) from watch_lists`).rejects.toMatchObject({ code: "42P01" });
  });

  it("keeps two accounts apart through PgBouncer in transaction mode", async () => {
    const through = postgres(bouncer.urlFor(database.url.split("/").pop()!), {
      max: 4,
      onnotice: () => {},
      prepare: false,
    });
    try {
      const a = scopedSql(through, "sa");
      const b = scopedSql(through, "sb");
      const rounds = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? count(a) : count(b))),
      );
      expect(rounds).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 11 : 2)));
      await b.begin(async (tx) => {
        await tx`delete from ${tx.t.watch_lists} where x = 101`;
      });
      expect(await Promise.all([count(a), count(b)])).toEqual([11, 1]);
    } finally {
      await through.end();
    }
  });
});

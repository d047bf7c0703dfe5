/**
 * One pool, many schemas (db/scoped-sql.ts): each statement runs in a transaction of its own that
 * sets its schema, so two accounts' statements on one connection never see each other's tables;
 * a statement whose commit fails is reported failed; a cursor streams inside its transaction and
 * gives the connection back when left early; a transaction's body is in its schema throughout.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scopedSql } from "../../src/db/scoped-sql.ts";
import { createEmptyDatabase } from "../helpers/db.ts";

let database: { url: string; drop(): Promise<void> };
let pool: postgres.Sql;

beforeAll(async () => {
  database = await createEmptyDatabase();
  // One connection: every statement of both schemas goes through it.
  pool = postgres(database.url, { max: 1, onnotice: () => {} });
  for (const schema of ["sa", "sb"]) {
    await pool.unsafe(`create schema ${schema}`);
    await pool.unsafe(`create table ${schema}.t (x int primary key)`);
    await pool.unsafe(
      `create table ${schema}.d (x int references ${schema}.t (x) deferrable initially deferred)`,
    );
  }
});
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

describe("statements scoped to a schema over a shared pool", () => {
  it("puts each statement in its own schema, interleaved on one connection", async () => {
    const a = scopedSql(pool, "sa");
    const b = scopedSql(pool, "sb");
    await Promise.all([
      a`insert into t select generate_series(1, 10)`,
      b`insert into t values (100)`,
      a`insert into t values (11)`,
    ]);
    const [ca, cb, plain] = await Promise.all([
      a<{ n: number }[]>`select count(*)::int as n from t`,
      b<{ n: number }[]>`select max(x)::int as n from t`,
      pool<{ path: string }[]>`select current_setting('search_path') as path`,
    ]);
    expect(ca[0]!.n).toBe(11);
    expect(cb[0]!.n).toBe(100);
    // Nothing of the schema stays on the connection.
    expect(plain[0]!.path).not.toMatch(/s[ab]/);
    const inTx = await b.begin(async (tx) => {
      await tx`insert into t values (101)`;
      return tx<{ n: number }[]>`select count(*)::int as n from t`;
    });
    expect(inTx[0]!.n).toBe(2);
  });

  it("reports a statement whose commit fails as failed, and keeps nothing of it", async () => {
    const a = scopedSql(pool, "sa");
    // The deferred foreign key is checked at commit: the insert itself succeeds.
    await expect(a`insert into d values (999)`).rejects.toMatchObject({ code: "23503" });
    expect((await a<{ n: number }[]>`select count(*)::int as n from d`)[0]!.n).toBe(0);
  });

  it("streams a cursor in its schema and frees the connection when left early", async () => {
    const a = scopedSql(pool, "sa");
    let seen = 0;
    for await (const rows of a<{ x: number }[]>`select x from t order by x`.cursor(4)) seen += rows.length;
    expect(seen).toBe(11);
    for await (const rows of a`select x from t`.cursor(2)) {
      expect(rows).toHaveLength(2);
      break;
    }
    // The one connection is free again, with no transaction left open on it.
    expect((await pool<{ s: string }[]>`select current_setting('search_path') as s`)[0]!.s).not.toMatch(/sa/);
  });

  it("reports a failed statement with its own error and leaves no transaction open", async () => {
    const a = scopedSql(pool, "sa");
    await expect(a`insert into t values (1)`).rejects.toMatchObject({ code: "23505" });
    const [row] = await pool<{ status: string }[]>`select current_setting('search_path') as status`;
    expect(row!.status).not.toMatch(/sa/);
    expect((await a<{ n: number }[]>`select count(*)::int as n from t`)[0]!.n).toBe(11);
  });
});

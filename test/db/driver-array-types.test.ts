/**
 * The driver's read of array types on each new connection (patches/postgres+3.4.9.patch): it
 * leaves out composite types. Every table, view and sequence has one, with an array type, so a
 * Postgres holding 1,000 accounts' schemas listed about 58,000 of them to every new connection
 * (0.42 s, 0.33 s of it the client's CPU; 0.06 s without them). The driver has no parser for a
 * composite's fields, so such an array was only ever split into texts; it now comes as the
 * server's text, and every other array (the built-in types', an enum's) is read as before. Both
 * builds of the driver: the sources import the ES module one, the build bundles the CommonJS one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { BOTH_DRIVER_BUILDS } from "../helpers/driver-builds.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.sql.unsafe(`
    create schema array_types;
    create type array_types.mood as enum ('calm', 'tense');
    create type array_types.pair as (a int, b text);
    create table array_types.payee (id int, name text);
    insert into array_types.payee values (1, 'Kővári Kft.'), (2, 'Šimon Bt.');
  `);
});
afterAll(async () => {
  await database?.drop();
});

describe.each(BOTH_DRIVER_BUILDS)("the %s driver's array types", (_, postgres) => {
  it("leave out composite types and read every other array as before", async () => {
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql`
        select array['a', 'b']::text[] as texts, array[1, 2]::int4[] as ints,
               array['calm', 'tense']::array_types.mood[] as moods,
               array[row(1, 'x')::array_types.pair] as pairs,
               (select array_agg(p order by p.id) from array_types.payee p) as payees`;
      expect(row!.texts).toEqual(["a", "b"]);
      expect(row!.ints).toEqual([1, 2]);
      expect(row!.moods).toEqual(["calm", "tense"]);
      // Composites in an array (a table's rows among them) come as the server's text.
      expect(row!.pairs).toBe(`{"(1,x)"}`);
      expect(row!.payees).toBe(`{"(1,\\"Kővári Kft.\\")","(2,\\"Šimon Bt.\\")"}`);

      const composites = await sql<{ typarray: number }[]>`
        select typarray from pg_catalog.pg_type where typtype = 'c' and typarray <> 0`;
      // The migrated schema's tables and views, this test's table and type: none given a parser.
      expect(composites.length).toBeGreaterThan(100);
      const parsers = sql.options.parsers as Record<number, unknown>;
      expect(composites.filter(({ typarray }) => parsers[typarray] !== undefined)).toEqual([]);
      expect(parsers[1009]).toBeDefined(); // text[]
    } finally {
      await sql.end();
    }
  });
});

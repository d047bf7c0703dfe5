/**
 * A COPY FROM STDIN that the server ends with an error after the driver has sent its last bytes
 * (patches/postgres+3.4.9.patch). The driver waits for the server's CommandComplete to finish
 * the stream it handed out; an error instead (a row refused at the end, the backend terminated,
 * the connection lost) left that stream unfinished for good, so whoever awaited it (the
 * console's upload held for a column choice, src/payments/sql/payment-uploads.ts) hung with
 * its transaction and connection. It now fails the stream with the error, and the connection
 * serves the next statement. Both builds of the driver.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type esmPostgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseGone } from "../../src/db/db-errors.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { BOTH_DRIVER_BUILDS } from "../helpers/driver-builds.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.sql.unsafe(`
    create schema copy_settles;
    create table copy_settles.counted (n int);
    create table copy_settles.slow (n int);
    create function copy_settles.slow_row() returns trigger language plpgsql as $$
      begin perform pg_sleep(30); return new; end $$;
    create trigger slow_row before insert on copy_settles.slow
      for each row execute function copy_settles.slow_row();
  `);
});
afterAll(async () => {
  await database?.drop();
});

/** What a promise came to: its value, or the error it failed with. */
function settled<T>(promise: PromiseLike<T>): Promise<T | Error> {
  return Promise.resolve(promise).then(
    (value) => value,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
}

async function backendPid(sql: ReturnType<typeof esmPostgres>): Promise<number> {
  const [row] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`;
  return row!.pid;
}

/** Terminates backend `pid` once its row is in the server's hands (the slow trigger sleeping). */
async function terminateWhileSleeping(pid: number): Promise<void> {
  const { sql } = database.db;
  for (;;) {
    const [row] = await sql<{ waiting: boolean }[]>`
      select wait_event = 'PgSleep' as waiting from pg_stat_activity where pid = ${pid}`;
    if (row?.waiting) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await sql`select pg_terminate_backend(${pid})`;
}

describe.each(BOTH_DRIVER_BUILDS)("the %s driver's COPY FROM STDIN", (_, postgres) => {
  it("fails, and does not hang, when the server refuses its last row after the end was sent", async () => {
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const copy = await sql`copy copy_settles.counted (n) from stdin`.writable();
      await expect(pipeline(Readable.from(["1\n", "2\n", "not a number\n"]), copy)).rejects.toMatchObject({
        code: "22P02",
      });
      // The same connection goes on, and the refused COPY stored nothing.
      expect(await sql`select count(*)::int as n from copy_settles.counted`).toEqual([{ n: 0 }]);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it("fails, and does not hang, when its backend is terminated after the end was sent", async () => {
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const pid = await backendPid(sql);
      const copy = await sql`copy copy_settles.slow (n) from stdin`.writable();
      const outcome = settled(pipeline(Readable.from(["1\n"]), copy));
      await terminateWhileSleeping(pid);
      expect(databaseGone(await outcome)).toBeDefined();
      // A statement sent before the connection was seen closed fails as closed, not waits.
      const next = await settled(sql`select 1 as one`);
      if (next instanceof Error) expect(databaseGone(next)).toBeDefined();
      else expect(next).toEqual([{ one: 1 }]);
      // And the pool opens another connection for the one after.
      expect(await sql`select 2 as two`).toEqual([{ two: 2 }]);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it("inside a transaction: the transaction fails, and does not hang, on its ROLLBACK", async () => {
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const pid = await backendPid(sql);
      const transaction = settled(
        sql.begin(async (tx) => {
          const copy = await tx`copy copy_settles.slow (n) from stdin`.writable();
          await pipeline(Readable.from(["1\n"]), copy);
        }),
      );
      await terminateWhileSleeping(pid);
      expect(databaseGone(await transaction)).toBeDefined();
      expect(await sql`select 3 as three`).toEqual([{ three: 3 }]);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});

describe.each(BOTH_DRIVER_BUILDS)("the %s driver after its backend is terminated", (_, postgres) => {
  it("fails the statement running, and runs the next one on a new connection", async () => {
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      const pid = await backendPid(sql);
      const sleeping = settled(sql`select pg_sleep(30)`);
      await terminateWhileSleeping(pid);
      expect(databaseGone(await sleeping)).toBeDefined();
      // The server's "terminating connection", read before the close, belonged to the lost
      // connection: the next one's first statement failed with it.
      expect(await sql`select 4 as four`).toEqual([{ four: 4 }]);
      expect(await backendPid(sql)).not.toBe(pid);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
});

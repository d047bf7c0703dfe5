/**
 * Queries written one behind another on a connection to a pooler in transaction mode. PgBouncer
 * hands its server to another client at the end of each transaction, so a query the driver has
 * pipelined behind a running one is cut off from its answer; one with parameters, which without
 * prepared statements waits for the server to describe it first, then waits for good. This hung a
 * fleet's job at a thousand accounts (one job in about a thousand). regwatch's pools on a URL that
 * says prepare=false write one query at a time: a connection with many concurrent queries must
 * answer every one of them.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../../src/db/connect.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type Bouncer, startPgBouncer } from "../helpers/pgbouncer.ts";

let bouncer: Bouncer;
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  bouncer = await startPgBouncer(inject("pgServerUrl"), { poolSize: 4 });
}, 120_000);
afterAll(async () => {
  await bouncer?.stop();
  await t?.drop();
});

describe("a pool through PgBouncer in transaction mode", () => {
  it("answers queries sent together on one connection, with and without parameters", {
    timeout: 60_000,
  }, async () => {
    const db = await openDatabase({ databaseUrl: bouncer.urlFor(t.name), dataDir: "" }, { max: 1 });
    try {
      const rounds = async () => {
        const seen: number[] = [];
        for (let i = 0; i < 200; i++) {
          const [plain, withParameter, again] = await Promise.all([
            db.sql<{ x: number }[]>`select 1 as x`,
            db.sql<{ x: number }[]>`select ${i}::int as x`,
            db.sql<{ x: number }[]>`select 2 as x`,
          ]);
          seen.push(plain[0]!.x + withParameter[0]!.x + again[0]!.x);
        }
        return seen;
      };
      // A hung query never settles: the race ends the test with a message instead of its timeout.
      const outcome = await Promise.race([rounds(), sleep(20_000).then(() => "hung" as const)]);
      expect(outcome).not.toBe("hung");
      expect(outcome).toEqual(Array.from({ length: 200 }, (_, i) => 3 + i));
    } finally {
      await Promise.race([db.close(), sleep(5_000)]);
    }
  });
});

/**
 * The installed postgres.js carries the fix of patches/postgres+3.4.9.patch. The driver holds a
 * small write for the next turn of the event loop and marks it pending; unpatched, two paths left
 * that mark set for good: a teardown (terminate, the socket's close) cancelled the write but kept
 * the mark, and a write flushed after the connection had closed threw on the missing socket before
 * clearing it (the stray TypeError src/db/connect.ts swallows). Either way the connection never
 * wrote again: its next connect sent no startup message until `connect_timeout` (30 s) ended it,
 * which test/outage/daemon-outage.test.ts met as a run 30 to 60 s late after Postgres restarted.
 * Patched, a teardown drops the held write with its mark, and a flush that finds no socket fails
 * the connection's queries as closed. A third path: a server (or a proxy with nothing behind it)
 * that ends every connection without a word while it starts up was tried again at once and for
 * ever, thousands of connections a second, and the query never ended; patched, the tries follow
 * the backoff and the query fails as closed, marked `during: "startup"`, once connect_timeout has
 * passed. A fourth: a connection lost while the driver reads the array types (its own first query
 * on a new connection) failed the caller's query, and also the read, whose rejection no one
 * caught: an unhandled rejection that ended the process (a sync crashed that way when Postgres
 * stopped under it); patched, the read's rejection is caught. A fifth: a reconnect waiting out its
 * backoff when the pool ended (sql.end with a timeout, during an outage) still ran, and its
 * connection stayed open in the ended pool; patched, ending the connection cancels it. Both builds
 * of the driver are checked: the sources and these tests import the ES module one, the build
 * bundles the CommonJS one (scripts/bundled-driver.mjs).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import esmPostgres from "postgres";
import { describe, expect, it } from "vitest";
import { closingProxy, resetAtFirstQuery } from "../helpers/closing-proxy.ts";

const root = fileURLToPath(new URL("../../node_modules/postgres/", import.meta.url));

/** Both builds of the installed driver. */
const BOTH_BUILDS = [
  ["ES module", esmPostgres],
  ["CommonJS", createRequire(import.meta.url)("postgres") as typeof esmPostgres],
] as const;

/** One connection to a test server on this machine's `port`. */
function client(
  postgres: typeof esmPostgres,
  port: number,
  options: { connect_timeout?: number; backoff?: (attempt: number) => number } = {},
) {
  return postgres({ host: "127.0.0.1", port, user: "nobody", database: "none", max: 1, ...options });
}

/** The error `select 1` ends with, or undefined when it succeeds. */
function failureOf(sql: ReturnType<typeof client>): Promise<{ code?: string; during?: string } | undefined> {
  return sql`select 1`.then(
    () => undefined,
    (e: unknown) => e as { code?: string; during?: string },
  );
}

function teardowns(file: string): string[] {
  const source = readFileSync(path.join(root, file), "utf8");
  return [...source.matchAll(/^\s*clearImmediate\(nextWriteTimer\)\n(.*)\n/gm)].map((m) => m[1]!.trim());
}

describe("the installed postgres.js", () => {
  it("is the version the patch was made for", () => {
    const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
    expect(manifest.version).toBe("3.4.9");
  });

  it.each(["src/connection.js", "cjs/src/connection.js"])("%s fails a write that finds no socket", (file) => {
    const source = readFileSync(path.join(root, file), "utf8");
    expect(source).toContain(
      "  function nextWrite(fn) {\n    if (!socket) {\n      chunk = nextWriteTimer = null\n      error(Errors.connection('CONNECTION_CLOSED', options))",
    );
  });

  it.each(["src/connection.js", "cjs/src/connection.js"])(
    "%s forgets a buffered write on teardown",
    (file) => {
      expect(teardowns(file)).toEqual(["chunk = nextWriteTimer = null", "chunk = nextWriteTimer = null"]);
    },
  );

  it.each(BOTH_BUILDS)(
    "(%s) gives up on a server that closes every start-up, after connect_timeout, with few tries",
    async (_, postgres) => {
      const proxy = await closingProxy();
      const sql = client(postgres, proxy.port, { connect_timeout: 1 });
      try {
        const error = await failureOf(sql);
        expect(error?.code).toBe("CONNECTION_CLOSED");
        expect(error?.during).toBe("startup");
        // Unpatched: the query never ends, and a second holds thousands of connections.
        expect(proxy.accepted()).toBeGreaterThan(1);
        expect(proxy.accepted()).toBeLessThan(30);
      } finally {
        await sql.end({ timeout: 0 });
        await proxy.close();
      }
    },
  );

  it.each(BOTH_BUILDS)(
    "(%s) opens no connection after sql.end() for a reconnect that was waiting out its backoff",
    async (_, postgres) => {
      const proxy = await closingProxy();
      const sql = client(postgres, proxy.port, { backoff: () => 2 });
      try {
        const query = failureOf(sql);
        // The first try is closed; the next waits out the 2 s backoff when the pool ends.
        while (proxy.accepted() === 0) await new Promise((resolve) => setTimeout(resolve, 10));
        await new Promise((resolve) => setTimeout(resolve, 200));
        await sql.end({ timeout: 0 });
        expect((await query)?.code).toBe("CONNECTION_DESTROYED");
        await new Promise((resolve) => setTimeout(resolve, 2500));
        // Unpatched: the waiting reconnect ran anyway, and against a server that answers, the
        // connection it opened stayed in the ended pool and kept the process alive.
        expect(proxy.accepted()).toBe(1);
      } finally {
        await proxy.close();
      }
    },
  );

  it.each(BOTH_BUILDS)(
    "(%s) fails the query, and leaves no rejection unhandled, when the connection is lost as it reads the array types",
    async (_, postgres) => {
      const unhandled: unknown[] = [];
      const record = (reason: unknown) => unhandled.push(reason);
      process.on("unhandledRejection", record);
      const server = await resetAtFirstQuery();
      const sql = client(postgres, server.port);
      try {
        const error = await failureOf(sql);
        expect(error?.code).toBe("ECONNRESET");
        await new Promise((resolve) => setTimeout(resolve, 50));
        // Unpatched: the driver's own read of the types rejects with no one to catch it, which
        // ends a process (Node's default for an unhandled rejection).
        expect(unhandled).toEqual([]);
      } finally {
        process.off("unhandledRejection", record);
        await sql.end({ timeout: 0 });
        await server.close();
      }
    },
  );
});

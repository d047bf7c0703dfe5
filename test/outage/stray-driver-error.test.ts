/**
 * Issues 26 and 46: the errors postgres.js raises outside any query when Postgres goes away (see
 * bare-driver.test.ts) do not crash the process with a stack trace; anything else still does.
 * They are known by what they are, never by the driver's file names in their stacks: bundled into
 * dist/, the driver has no file of its own, and the check by name had missed its CommonJS files
 * (`postgres/cjs/src/…`, what `regwatch status` ran). Each error here is a real one: the driver's
 * from both its builds, a backend terminated under a statement, a socket reset, a broken pipe.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { connect, createServer } from "node:net";
import esmPostgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isStrayDriverError } from "../../src/db/connect.ts";
import { closingProxy } from "../helpers/closing-proxy.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { BOTH_DRIVER_BUILDS } from "../helpers/driver-builds.ts";

/** What `promise` rejected with (it must reject). */
async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: Error) => error,
  );
}

/** `error` as the bundle raises it: a copy whose stack names dist/ where the driver's files were. */
function asBundled<E extends Error>(error: E): E {
  const stack = (error.stack ?? "").replace(
    /\(\S*node_modules\/postgres\/\S+\)/g,
    "(/app/dist/chunks/chunk-X.js:1:1)",
  );
  return Object.create(Object.getPrototypeOf(error), {
    ...Object.getOwnPropertyDescriptors(error),
    stack: { value: stack, writable: true, configurable: true },
  }) as E;
}

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

describe("isStrayDriverError", () => {
  it.each(BOTH_DRIVER_BUILDS)(
    "knows the (%s) driver's CONNECTION_CLOSED, whatever its stack names",
    async (_, postgres) => {
      const proxy = await closingProxy();
      const sql = postgres({ host: "127.0.0.1", port: proxy.port, max: 1, connect_timeout: 1 });
      try {
        const closed = await rejectionOf(sql`select 1`);
        expect(closed).toMatchObject({ code: "CONNECTION_CLOSED" });
        expect(isStrayDriverError(closed)).toBe(true);
        const bundled = asBundled(closed);
        expect(bundled.stack).toContain("dist/chunks/");
        expect(bundled.stack).not.toMatch(/node_modules\/postgres/);
        expect(isStrayDriverError(bundled)).toBe(true);
      } finally {
        await sql.end({ timeout: 0 });
        await proxy.close();
      }
    },
  );

  it("knows the server's end of a connection (class 57P) by the driver's class, not its other errors", async () => {
    const sql = esmPostgres(t.url, { max: 1, onnotice: () => {} });
    try {
      const divided = await rejectionOf(sql`select 1 / 0`);
      expect(divided).toBeInstanceOf(esmPostgres.PostgresError);
      expect(divided).toMatchObject({ code: "22012" });
      expect(isStrayDriverError(divided)).toBe(false);
    } finally {
      await sql.end({ timeout: 0 });
    }
    // What the driver makes of the server's error response to a terminated backend: its fields.
    const terminated = new esmPostgres.PostgresError({
      severity: "FATAL",
      code: "57P01",
      message: "terminating connection due to administrator command",
    } as never);
    expect(isStrayDriverError(asBundled(terminated))).toBe(true);
    // The same code on an error of another class is not the driver's.
    expect(isStrayDriverError(Object.assign(new Error("terminated"), { code: "57P01" }))).toBe(false);
  });

  it("knows the reset of a socket, as Node raises it", async () => {
    const server = createServer((socket) => socket.once("data", () => socket.resetAndDestroy()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      const socket = connect(port, "127.0.0.1", () => socket.write("startup"));
      const [reset] = (await once(socket, "error")) as [Error];
      expect(reset).toMatchObject({ code: "ECONNRESET", syscall: "read" });
      expect(isStrayDriverError(reset)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("leaves a broken pipe of standard output or error to crash", async () => {
    // A pipe whose reader has gone, as standard output is when `regwatch changes | head` has read enough.
    const reader = spawn("sh", ["-c", "exec 0<&-; echo closed; exec sleep 60"], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    try {
      await once(reader.stdout!, "data");
      const pipe = reader.stdin!;
      pipe.write("more than the reader wanted\n");
      const [broken] = (await once(pipe, "error")) as [Error];
      expect(broken).toMatchObject({ code: "EPIPE", syscall: "write" });
      expect(isStrayDriverError(broken, [pipe])).toBe(false);
      // The same error of a stream that is neither: a socket's, as the driver's would be.
      expect(isStrayDriverError(broken, [])).toBe(true);
    } finally {
      reader.kill();
    }
  });

  it("lets everything else crash as Node would", () => {
    expect(isStrayDriverError(new TypeError("Cannot read properties of null (reading 'write')"))).toBe(false);
    // A code alone is not a socket's error (a library's own error may carry one).
    expect(isStrayDriverError(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }))).toBe(
      false,
    );
    expect(isStrayDriverError(Object.assign(new Error("closed"), { code: "CONNECTION_CLOSED" }))).toBe(false);
  });
});

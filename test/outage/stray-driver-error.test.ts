/**
 * Issue 26: the errors postgres.js raises outside any query when Postgres goes away (see
 * bare-driver.test.ts) are recognised and do not crash the process with a stack trace; anything
 * else still does. Before, a bare ECONNRESET (a reset reaching a socket whose listeners the driver
 * had removed) ended `sync` with Node's stack trace and no regwatch message.
 */
import { describe, expect, it } from "vitest";
import { isStrayDriverError } from "../../src/db/connect.ts";

const withStack = <E extends Error>(error: E, frames: string[], code?: string): E => {
  error.stack = [`${error.name}: ${error.message}`, ...frames.map((f) => `    at ${f}`)].join("\n");
  if (code) Object.assign(error, { code });
  return error;
};

describe("isStrayDriverError", () => {
  it("recognises the reset of a socket nobody listens to any more (only Node's frames)", () => {
    const reset = withStack(
      new Error("read ECONNRESET"),
      [
        "TCP.onStreamRead (node:internal/stream_base_commons:218:20)",
        "TCP.callbackTrampoline (node:internal/async_hooks:130:17)",
      ],
      "ECONNRESET",
    );
    expect(isStrayDriverError(reset)).toBe(true);
  });

  it("recognises the driver's write to the socket it has just dropped", () => {
    const write = withStack(new TypeError("Cannot read properties of null (reading 'write')"), [
      "Immediate.nextWrite (/app/node_modules/postgres/src/connection.js:255:22)",
      "process.processImmediate (node:internal/timers:485:21)",
    ]);
    expect(isStrayDriverError(write)).toBe(true);
  });

  it("recognises that write meeting a socket the server has just reset", () => {
    const write = withStack(
      new Error("write ECONNRESET"),
      [
        "afterWriteDispatched (node:internal/stream_base_commons:161:15)",
        "Socket._write (node:net:970:8)",
        "Writable.write (node:internal/streams/writable:510:10)",
        "Immediate.nextWrite [as _onImmediate] (/app/node_modules/postgres/src/connection.js:255:22)",
        "process.processImmediate (node:internal/timers:483:21)",
      ],
      "ECONNRESET",
    );
    expect(isStrayDriverError(write)).toBe(true);
    // The same error raised from a write of the driver's other than the buffered one is not.
    write.stack = write.stack!.replace("Immediate.nextWrite [as _onImmediate]", "Connection.execute");
    expect(isStrayDriverError(write)).toBe(false);
  });

  it("lets everything else crash as Node would", () => {
    const ours = withStack(
      new Error("read ECONNRESET"),
      [
        "Socket.onData (/app/src/api/http.ts:10:5)",
        "TCP.onStreamRead (node:internal/stream_base_commons:218:20)",
      ],
      "ECONNRESET",
    );
    expect(isStrayDriverError(ours)).toBe(false);
    expect(
      isStrayDriverError(withStack(new TypeError("x is undefined"), ["main (/app/src/cli.ts:1:1)"])),
    ).toBe(false);
  });
});

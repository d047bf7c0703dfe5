/**
 * Bullet 3 of issue 10: the body is read under a byte cap (declared length first, then while
 * reading), deep JSON is refused by name before parsing, invalid UTF-8 is an error.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonDepth } from "../../src/api/body.ts";
import { ApiError } from "../../src/api/errors.ts";
import { WatchClient } from "../../src/api/watch-client.ts";
import { driveUntilSettled } from "../helpers/drive-clock.ts";
import { type HostileServer, startHostileServer } from "../helpers/hostile-server.ts";
import { testClient } from "./setup.ts";

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(() => server.close());

const CAP = { bytes: 256 * 1024, name: "REGWATCH_MAX_RESPONSE_BYTES" };

function watch() {
  const { http, clock } = testClient(server.origin, { cap: CAP, maxAttempts: 3 });
  const client = new WatchClient(http, { baseUrl: server.origin, fromParam: "from", toParam: "to" });
  return { http, clock, client };
}

describe("response size cap", () => {
  it("refuses a declared Content-Length above the cap before reading, without retrying", async () => {
    server.answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(10 * 1024 * 1024) });
      res.write("{"); // the rest never comes: the cap must not wait for it
    };
    const { http, clock, client } = watch();
    const before = server.seen.length;
    const { error } = await driveUntilSettled(clock, client.lists());
    expect((error as ApiError).code).toBe("TOO_LARGE");
    expect((error as ApiError).message).toMatch(
      /10485760 bytes \(declared\).*262144 bytes.*REGWATCH_MAX_RESPONSE_BYTES/,
    );
    expect(server.seen.length - before).toBe(1);
    await http.close();
  });

  it("stops reading an undeclared (chunked) body at the cap", async () => {
    let written = 0;
    server.answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      // Endless body, written as fast as the client drains it.
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) written += chunk.length;
      };
      res.on("drain", pump);
      pump();
    };
    const { http, clock, client } = watch();
    const { error } = await driveUntilSettled(clock, client.lists());
    expect((error as ApiError).code).toBe("TOO_LARGE");
    expect((error as ApiError).message).toMatch(/passed 262144 bytes while reading/);
    // The server could push a few socket buffers beyond the cap, no more: reading stopped.
    expect(written).toBeLessThan(16 * 1024 * 1024);
    await http.close();
  });
});

describe("hostile JSON", () => {
  it("refuses JSON nested 8,000 deep by name instead of overflowing the stack", async () => {
    const deep = `{"watch_lists": ${"[".repeat(8000)}${"]".repeat(8000)}}`;
    server.answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(deep);
    };
    const { http, clock, client } = watch();
    const { error } = await driveUntilSettled(clock, client.lists());
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("TOO_DEEP");
    expect((error as ApiError).message).toMatch(/nested deeper than 256 levels/);
    expect((error as Error).message).not.toMatch(/call stack/);
    await http.close();
  });

  it("counts depth outside strings only", () => {
    expect(jsonDepth('{"a": "[[[[{{{{", "b": [1, {"c": []}]}')).toBe(4);
    expect(jsonDepth('["\\"[[["]')).toBe(1);
  });

  it("detects invalid UTF-8 instead of turning it into U+FFFD", async () => {
    server.answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        Buffer.concat([
          Buffer.from('{"watch_lists": [{"list_key": "1", "list_name": "C'),
          Buffer.from([0xc3, 0x28]),
          Buffer.from('g"}]}'),
        ]),
      );
    };
    const { http, clock, client } = watch();
    const { error } = await driveUntilSettled(clock, client.lists());
    expect((error as ApiError).code).toBe("BAD_ENCODING");
    expect((error as ApiError).message).toMatch(/not valid UTF-8/);
    await http.close();
  });
});

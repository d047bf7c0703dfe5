/**
 * Bullet 4 of issue 10 / 17 #10: one change file, relative paths resolved against the watch
 * address, redirects followed at most 3 times and only within the allowed origins, the key sent
 * only to the watch origin, the file cap applied.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiError } from "../../src/api/errors.ts";
import { downloadFile, RefusedFileError } from "../../src/api/file-download.ts";
import { driveUntilSettled } from "../helpers/drive-clock.ts";
import { type HostileServer, startHostileServer } from "../helpers/hostile-server.ts";
import { KEY, testClient } from "./setup.ts";

let watchSide: HostileServer; // the watch interface's origin (gets the key)
let mirror: HostileServer; // another allowed origin
let foreign: HostileServer; // not allowed
beforeAll(async () => {
  [watchSide, mirror, foreign] = await Promise.all([
    startHostileServer(),
    startHostileServer(),
    startHostileServer(),
  ]);
});
afterAll(() => Promise.all([watchSide.close(), mirror.close(), foreign.close()]));

function download(path: string, maxBytes = 1024 * 1024) {
  const { http, clock } = testClient(watchSide.origin);
  const promise = downloadFile(http, path, {
    baseUrl: `${watchSide.origin}/api`,
    allowedOrigins: [watchSide.origin, mirror.origin],
    maxBytes,
  });
  return driveUntilSettled(clock, promise).finally(() => http.close());
}

describe("change file download", () => {
  it("resolves a relative path against the watch address and returns the bytes with their type", async () => {
    watchSide.answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf" });
      res.end(Buffer.from([0x25, 0x50, 0x44, 0x46, 0xff]));
    };
    const { value, error } = await download("files/2026/a.pdf");
    expect(error).toBeUndefined();
    expect(value!.body).toEqual(Buffer.from([0x25, 0x50, 0x44, 0x46, 0xff]));
    expect(value!.contentType).toBe("application/pdf");
    expect(value!.status).toBe(200);
    const seen = watchSide.seen.at(-1)!;
    expect(seen.path).toBe("/api/files/2026/a.pdf");
    expect(seen.headers["x-api-key"]).toBe(KEY);
  });

  it("follows a redirect to another allowed origin without sending it the key", async () => {
    watchSide.answer = (_req, res) => {
      res.writeHead(302, { location: `${mirror.origin}/blob/1` });
      res.end();
    };
    mirror.answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"ok":true}');
    };
    const { value, error } = await download(`${watchSide.origin}/api/files/1.json`);
    expect(error).toBeUndefined();
    expect(value!.url).toBe(`${mirror.origin}/blob/1`);
    expect(value!.redirects).toBe(1);
    expect(value!.body.toString()).toBe('{"ok":true}');
    expect(mirror.seen.at(-1)!.headers["x-api-key"]).toBeUndefined();
  });

  it("refuses a redirect to an origin outside the allowed list, sending nothing there", async () => {
    watchSide.answer = (_req, res) => {
      res.writeHead(301, { location: `${foreign.origin}/steal` });
      res.end();
    };
    const { error } = await download("files/x.json");
    expect(error).toBeInstanceOf(RefusedFileError);
    expect((error as ApiError).code).toBe("REFUSED_ORIGIN");
    expect((error as Error).message).toMatch(/redirect refused: origin .* is not in REGWATCH_FILE_ORIGINS/);
    expect(foreign.seen).toHaveLength(0);
  });

  it("refuses a foreign absolute path without a request", async () => {
    const before = watchSide.seen.length;
    const { error } = await download(`${foreign.origin}/file.json`);
    expect(error).toBeInstanceOf(RefusedFileError);
    expect(foreign.seen).toHaveLength(0);
    expect(watchSide.seen.length).toBe(before);
  });

  it("gives up after 3 redirects", async () => {
    let n = 0;
    watchSide.answer = (_req, res) => {
      res.writeHead(307, { location: `/api/hop/${++n}` });
      res.end();
    };
    const before = watchSide.seen.length;
    const { error } = await download("files/loop");
    expect((error as ApiError).message).toMatch(/more than 3 redirects/);
    expect(watchSide.seen.length - before).toBe(4);
  });

  it("applies the file cap, naming REGWATCH_MAX_FILE_BYTES", async () => {
    watchSide.answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": "5000" });
      res.end(Buffer.alloc(5000));
    };
    const { error } = await download("files/big.bin", 1000);
    expect((error as ApiError).code).toBe("TOO_LARGE");
    expect((error as Error).message).toMatch(/1000 bytes \(REGWATCH_MAX_FILE_BYTES\)/);
  });
});

/**
 * Bullet 9 of issue 10: a server that echoes the API key in every error body (an HTML 401/403
 * page, a JSON 500 message) never gets it into an error message, whatever the error path.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.ts";
import { registerSecrets } from "../../src/secrets.ts";
import { driveUntilSettled } from "../helpers/drive-clock.ts";
import { type HostileServer, json, startHostileServer } from "../helpers/hostile-server.ts";
import { KEY, testClient } from "./setup.ts";

let server: HostileServer;
beforeAll(async () => {
  registerSecrets([KEY]);
  server = await startHostileServer();
});
afterAll(() => server.close());

const echoKey =
  (status: number) =>
  (req: { headers: Record<string, unknown> }, res: import("node:http").ServerResponse) => {
    const key = String(req.headers["x-api-key"]);
    if (status === 500 || status === 429) {
      json(
        res,
        status,
        { message: `internal error for key ${key}` },
        status === 429 ? { "retry-after": "9999" } : {},
      );
    } else {
      res.writeHead(status, { "content-type": "text/html" });
      res.end(
        `<html><body><h1>Forbidden</h1><p>The key ${key} is not valid (${encodeURIComponent(key)})</p></body></html>`,
      );
    }
  };

describe("server text in errors is scrubbed of secrets", () => {
  for (const status of [401, 403, 500, 429]) {
    it(`keeps the echoed key out of the error of a ${status}`, async () => {
      server.answer = echoKey(status);
      const { http, clock } = testClient(server.origin, { maxAttempts: 2 });
      const { error } = await driveUntilSettled(
        clock,
        http.request({ method: "GET", url: new URL("/v2/lists", server.origin), endpoint: "GET /v2/lists" }),
      );
      expect(error).toBeInstanceOf(ApiError);
      const seen = server.seen.at(-1)!;
      expect(seen.headers["x-api-key"]).toBe(KEY); // the server did have it to echo
      const message = (error as ApiError).message;
      expect(message).toMatch(new RegExp(`answered ${status}`));
      expect(message).toContain("[redacted]");
      expect(message).not.toContain(KEY);
      expect(JSON.stringify({ ...(error as object), message })).not.toContain(KEY);
      await http.close();
    });
  }
});

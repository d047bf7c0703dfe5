/**
 * A FastAPI registry's error bodies become messages that name what was wrong: a validation answer
 * (`{"detail": [{"loc": ["query", "<name>"], "msg"}]}`) names each parameter, `{"detail": "..."}`
 * is said as it is; and a refused changes request says which names regwatch sent and where they
 * come from.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, describeBody } from "../../src/api/errors.ts";
import { WatchClient } from "../../src/api/watch-client.ts";
import { driveUntilSettled } from "../helpers/drive-clock.ts";
import { type HostileServer, json, startHostileServer } from "../helpers/hostile-server.ts";
import { testClient } from "./setup.ts";

describe("describeBody", () => {
  it.each([
    [
      { detail: [{ type: "missing", loc: ["query", "date_from"], msg: "Field required", input: null }] },
      "query parameter date_from: Field required",
    ],
    [
      {
        detail: [
          { loc: ["query", "date_to"], msg: "Input should be a valid date", input: "03/02" },
          { loc: ["path", "list_key"], msg: "String should match pattern" },
          { loc: ["body", "tax_ids", 0], msg: "Input should be a valid string" },
        ],
      },
      "query parameter date_to: Input should be a valid date; path parameter list_key: String should match pattern; body field tax_ids.0: Input should be a valid string",
    ],
    [{ detail: "Not Found" }, "Not Found"],
    [{ detail: [{ loc: "nowhere", msg: 5 }] }, "request: is invalid"],
    [{ message: "list_name does not match" }, "list_name does not match"],
    [{ detail: "line one\nline\u0007two" }, "line one line two"],
  ])("%j → %s", (body, expected) => {
    expect(describeBody(JSON.stringify(body))).toBe(expected);
  });

  it("bounds what a server may say: five problems and a count of the rest, each message cut", () => {
    const detail = Array.from({ length: 40 }, (_, i) => ({ loc: ["query", `p${i}`], msg: "x".repeat(1000) }));
    const text = describeBody(JSON.stringify({ detail }));
    expect(text.split("; ")).toHaveLength(6);
    expect(text).toMatch(/; 35 more$/);
    expect(text.length).toBeLessThan(1200);
  });
});

describe("a refused changes request", () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer((_req, res) =>
      json(res, 422, {
        detail: [
          { type: "missing", loc: ["query", "date_from"], msg: "Field required", input: null },
          { type: "missing", loc: ["query", "date_to"], msg: "Field required", input: null },
        ],
      }),
    );
  });
  afterAll(() => server.close());

  it("names the parameters the registry wants and the ones regwatch sent", async () => {
    const { http, clock } = testClient(server.origin);
    const watch = new WatchClient(http, {
      baseUrl: `${server.origin}`,
      fromParam: "start_date",
      toParam: "end_date",
    });
    const { error } = await driveUntilSettled(clock, watch.changes("wl_1", "2024-03-01", "2024-03-07"));
    await http.close();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).message).toBe(
      "GET /v2/lists/:key/changes answered 422: query parameter date_from: Field required; " +
        "query parameter date_to: Field required (regwatch sent the interval as start_date and end_date: " +
        "the names come from REGWATCH_CHANGES_FROM_PARAM / REGWATCH_CHANGES_TO_PARAM when set, else from " +
        "the registry's description at {watch_base_url}/docs, else the defaults; `regwatch doctor` compares them)",
    );
    // Not retried: a validation error does not go away by asking again.
    expect(server.seen).toHaveLength(1);
  });
});

/**
 * readDescription against servers that describe themselves badly or not at all: nothing served,
 * a page only, a page referencing another host, a huge or deeply nested document, wrong types,
 * external references, too few date parameters, a registry that fails or hangs. Each ends in an
 * outcome naming the problem (never an exception, never a request off the watch origin); a good
 * description under a path prefix, a Swagger 2.0 one and one served at /docs itself are read.
 */
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type DescriptionOutcome, readDescription } from "../../src/api/description.ts";
import { RateLimiter } from "../../src/api/rate-limiter.ts";
import { KEY, testClient } from "../api/setup.ts";
import { driveUntilSettled } from "../helpers/drive-clock.ts";
import { FakeClock } from "../helpers/fake-clock.ts";
import { type HostileServer, json, type SeenRequest, startHostileServer } from "../helpers/hostile-server.ts";

let registry: HostileServer;
let other: HostileServer;
beforeAll(async () => {
  [registry, other] = await Promise.all([startHostileServer(), startHostileServer()]);
});
afterAll(() => Promise.all([registry.close(), other.close()]));
beforeEach(() => {
  registry.seen.length = 0;
  other.seen.length = 0;
  other.answer = (_req, res) => json(res, 200, goodDocument("/v2"));
});

/** Serves `routes` by path; anything else is FastAPI's 404. */
function serve(routes: Record<string, (req: SeenRequest, res: ServerResponse) => void>) {
  registry.answer = (req, res) => {
    const route = routes[req.path];
    if (route) route(req, res);
    else json(res, 404, { detail: "Not Found" });
  };
}

const html = (body: string) => (_req: SeenRequest, res: ServerResponse) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(body);
};
const fastApiPage = (specUrl: string) =>
  html(`<!DOCTYPE html><html><body><div id="swagger-ui"></div><script>
const ui = SwaggerUIBundle({
    url: '${specUrl}',
"dom_id": "#swagger-ui",
    })</script></body></html>`);
const document = (doc: unknown) => (_req: SeenRequest, res: ServerResponse) => json(res, 200, doc);

function changesOperation(parameters: unknown[], description?: string) {
  return {
    get: {
      summary: "List Changes",
      operationId: "changes",
      ...(description ? { description } : {}),
      parameters: [
        { name: "list_key", in: "path", required: true, schema: { type: "string" } },
        ...parameters,
      ],
      responses: { "200": { description: "Successful Response" } },
    },
  };
}

/** A description as FastAPI writes one for optional dates: anyOf [date, null], and a page number. */
function goodDocument(prefix: string) {
  return {
    openapi: "3.1.0",
    info: { title: "watch", version: "2" },
    paths: {
      [`${prefix}/lists/{list_key}/changes`]: changesOperation([
        { name: "limit", in: "query", schema: { type: "integer" } },
        {
          name: "valid_from",
          in: "query",
          required: false,
          schema: { anyOf: [{ type: "string", format: "date" }, { type: "null" }], title: "Valid From" },
        },
        {
          name: "valid_until",
          in: "query",
          description: "Last day of the interval (exclusive)",
          schema: { anyOf: [{ type: "string", format: "date" }, { type: "null" }] },
        },
        { name: "page_no", in: "query", schema: { anyOf: [{ type: "integer" }, { type: "null" }] } },
      ]),
    },
  };
}

async function read(
  base: string,
  options: { cap?: number; maxAttempts?: number; timeMs?: number; signal?: AbortSignal } = {},
): Promise<{ outcome?: DescriptionOutcome; error?: unknown; acquired: number }> {
  const clock = new FakeClock();
  let acquired = 0;
  const limiter = new RateLimiter(30, clock);
  const acquire = limiter.acquire.bind(limiter);
  limiter.acquire = (signal) => {
    acquired++;
    return acquire(signal);
  };
  const { http } = testClient(registry.origin, {
    clock,
    limiter,
    maxAttempts: options.maxAttempts ?? 1,
    timeoutMs: 2_000,
    ...(options.cap ? { cap: { bytes: options.cap, name: "REGWATCH_MAX_RESPONSE_BYTES" } } : {}),
  });
  const settled = await driveUntilSettled(
    clock,
    readDescription(http, base, { today: "2024-03-11", timeMs: options.timeMs, signal: options.signal }),
  );
  await http.close();
  return { outcome: settled.value, error: settled.error, acquired };
}

describe("reading a description", () => {
  it("reads a FastAPI description under a path prefix: first and last date parameter, page, inclusivity", async () => {
    serve({
      "/watch/v2/docs": fastApiPage("/watch/v2/openapi.json"),
      "/watch/v2/openapi.json": document(goodDocument("/v2")),
    });
    const { outcome, acquired } = await read(`${registry.origin}/watch/v2/`);
    expect(outcome).toMatchObject({
      status: "found",
      url: `${registry.origin}/watch/v2/openapi.json`,
      readOn: "2024-03-11",
      params: {
        from: "valid_from",
        to: "valid_until",
        page: "page_no",
        dateFormat: "date",
        endInclusive: false,
      },
    });
    expect(outcome).toHaveProperty("sha256", expect.stringMatching(/^[0-9a-f]{64}$/));
    expect(registry.seen.map((r) => r.path)).toEqual(["/watch/v2/docs", "/watch/v2/openapi.json"]);
    // Paced like every request of the watch interface, the key only to its own origin.
    expect(acquired).toBe(2);
    expect(registry.seen.every((r) => r.headers["x-api-key"] === KEY)).toBe(true);
  });

  it("reads a Swagger 2.0 description, and one served at /docs itself", async () => {
    const swagger = {
      swagger: "2.0",
      info: { title: "watch", version: "2" },
      paths: {
        "/v2/lists/{list_key}/changes": {
          get: {
            description: "Changes between two days, both ends inclusive.",
            parameters: [
              { name: "list_key", in: "path", required: true, type: "string" },
              { name: "from", in: "query", type: "string", format: "date", required: true },
              { name: "to", in: "query", type: "string", format: "date", required: true },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    };
    serve({ "/v2/docs": document(swagger) });
    const { outcome } = await read(`${registry.origin}/v2`);
    expect(outcome).toMatchObject({
      status: "found",
      url: `${registry.origin}/v2/docs`,
      params: { from: "from", to: "to", endInclusive: true },
    });
    expect(outcome).not.toHaveProperty("params.page");
  });

  it("calls nothing served absent, listing every address tried", async () => {
    serve({});
    const { outcome } = await read(`${registry.origin}/v2`);
    expect(outcome).toEqual({
      status: "absent",
      tried: [
        `${registry.origin}/v2/docs`,
        `${registry.origin}/v2/openapi.json`,
        `${registry.origin}/openapi.json`,
      ],
      problem: expect.stringContaining("no description is served"),
    });
  });

  it("calls a page that references nothing, or only HTML, unreadable", async () => {
    serve({ "/v2/docs": html("<html><body>API documentation coming soon</body></html>") });
    const page = await read(`${registry.origin}/v2`);
    expect(page.outcome).toMatchObject({
      status: "unreadable",
      problem: expect.stringMatching(/references no description/),
    });

    serve({ "/v2/docs": fastApiPage("/v2/openapi.json"), "/v2/openapi.json": html("<html>login</html>") });
    const htmlOnly = await read(`${registry.origin}/v2`);
    expect(htmlOnly.outcome).toMatchObject({
      status: "unreadable",
      problem: expect.stringMatching(/\/v2\/openapi\.json: response is not valid JSON/),
    });
  });

  it("follows no reference to another origin", async () => {
    serve({ "/v2/docs": fastApiPage(`${other.origin}/openapi.json`) });
    const { outcome } = await read(`${registry.origin}/v2`);
    expect(outcome).toMatchObject({
      status: "unreadable",
      problem: expect.stringContaining(`references ${other.origin}/openapi.json, on another origin`),
    });
    expect(other.seen).toEqual([]);
  });

  it("refuses a huge document at the byte cap and a deeply nested one before parsing", async () => {
    const huge = { ...goodDocument("/v2"), "x-padding": "x".repeat(300_000) };
    serve({ "/v2/openapi.json": document(huge) });
    const big = await read(`${registry.origin}/v2`, { cap: 64 * 1024 });
    expect(big.outcome).toMatchObject({
      status: "unreadable",
      problem: expect.stringMatching(/exceeds the cap of 65536 bytes \(REGWATCH_MAX_RESPONSE_BYTES\)/),
    });

    let nested = "{}";
    for (let i = 0; i < 5000; i++) nested = `{"a":${nested}}`;
    serve({ "/v2/openapi.json": (_req, res) => json(res, 200, `{"openapi":"3.1.0","x":${nested}}`) });
    const deep = await read(`${registry.origin}/v2`);
    expect(deep.outcome).toMatchObject({
      status: "unreadable",
      problem: expect.stringMatching(/nested deeper than 64 levels/),
    });
  });

  it("names what is wrong with a document of the wrong shape", async () => {
    const cases: [unknown, RegExp][] = [
      [{ openapi: 3, paths: {} }, /not an OpenAPI description \(no openapi or swagger version field\)/],
      [
        {
          openapi: "3.1.0",
          info: { title: "x", version: "1" },
          paths: { "/v2/lists/{k}/changes": { get: { parameters: "date_from" } } },
        },
        /not a valid OpenAPI description/,
      ],
      [
        {
          openapi: "3.1.0",
          info: { title: "x", version: "1" },
          paths: {
            "/v2/lists/{list_key}/changes": changesOperation([
              { name: 5, in: "query", schema: { format: "date" } },
            ]),
          },
        },
        /not a valid OpenAPI description/,
      ],
      [
        {
          openapi: "3.1.0",
          info: { title: "x", version: "1" },
          paths: { "/v2/lists": { get: { responses: { "200": { description: "ok" } } } } },
        },
        /has no changes operation \(GET \/v2\/lists\/\{list_key\}\/changes\)/,
      ],
      [
        {
          openapi: "3.1.0",
          info: { title: "x", version: "1" },
          paths: {
            "/v2/lists/{list_key}/changes": changesOperation([
              { name: "day", in: "query", schema: { type: "string", format: "date" } },
              { name: "until", in: "query", schema: { type: "string" } },
            ]),
          },
        },
        /names 1 query parameter\(s\) with a date format on \/v2\/lists\/\{list_key\}\/changes \(day\); two .* are needed/,
      ],
    ];
    for (const [doc, problem] of cases) {
      serve({ "/v2/openapi.json": document(doc) });
      const { outcome } = await read(`${registry.origin}/v2`);
      expect(outcome).toMatchObject({ status: "unreadable", problem: expect.stringMatching(problem) });
    }
  });

  it("resolves no external reference", async () => {
    const doc = goodDocument("/v2");
    const parameters = doc.paths["/v2/lists/{list_key}/changes"]!.get.parameters as unknown[];
    parameters.splice(2, 1, { $ref: `${other.origin}/parameters.json#/valid_from` });
    serve({ "/v2/openapi.json": document(doc) });
    const { outcome } = await read(`${registry.origin}/v2`);
    expect(outcome?.status).toBe("unreadable");
    expect(other.seen).toEqual([]);
  });

  it("marks a registry that fails or hangs as unreadable for now (transient), and gives way to a stop", async () => {
    registry.answer = (_req, res) => json(res, 503, { detail: "maintenance" });
    const failing = await read(`${registry.origin}/v2`);
    expect(failing.outcome).toMatchObject({
      status: "unreadable",
      transient: true,
      problem: expect.stringMatching(/503/),
    });

    registry.answer = () => {}; // never answers
    const hanging = await read(`${registry.origin}/v2`, { timeMs: 300 });
    expect(hanging.outcome).toMatchObject({
      status: "unreadable",
      transient: true,
      problem: expect.stringMatching(/no description was read within/),
    });

    const stop = new AbortController();
    stop.abort();
    const stopped = await read(`${registry.origin}/v2`, { signal: stop.signal });
    expect(stopped.outcome).toBeUndefined();
    expect(stopped.error).toMatchObject({ code: "ABORTED" });
  });
});

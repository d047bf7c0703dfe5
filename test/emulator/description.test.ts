/**
 * The emulator describes its watch interface as a FastAPI registry does: a Swagger UI page at
 * /v2/docs that loads /v2/openapi.json, both without a key, the document valid OpenAPI and true to
 * the endpoints served (the changes parameters it is configured with); under a base path, every
 * path moves below it.
 */
import { validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, startHarness } from "./harness.ts";

type Doc = {
  paths: Record<
    string,
    Record<string, { parameters?: { name: string; in: string; schema: { format?: string } }[] }>
  >;
  servers?: { url: string }[];
};

describe("the emulator's description", () => {
  let h: Harness;
  let renamed: Harness;
  beforeAll(async () => {
    h = await startHarness();
    renamed = await startHarness({
      changesFromParam: "date_from",
      changesToParam: "date_to",
      basePath: "/watch",
    });
  });
  afterAll(async () => {
    await h?.emulator.close();
    await renamed?.emulator.close();
  });

  it("serves a Swagger UI page at /v2/docs that references /v2/openapi.json, without a key", async () => {
    const page = await h.call("GET", "/v2/docs", undefined, {});
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await page.text()).toContain("url: '/v2/openapi.json'");
    const json = await h.call("GET", "/v2/openapi.json", undefined, {});
    expect(json.status).toBe(200);
    const doc = (await json.json()) as Doc;
    expect(await validate(structuredClone(doc) as never)).toMatchObject({ valid: true });
    // Every path the document names is one the emulator serves, with the methods it allows.
    expect(Object.keys(doc.paths).sort()).toEqual([
      "/v2/lists",
      "/v2/lists/{list_key}",
      "/v2/lists/{list_key}/changes",
      "/v2/lists/{list_key}/items",
    ]);
    expect(Object.keys(doc.paths["/v2/lists/{list_key}/items"]!).sort()).toEqual(["delete", "get", "post"]);
    const changes = doc.paths["/v2/lists/{list_key}/changes"]!.get!.parameters!;
    expect(changes.filter((p) => p.in === "query").map((p) => [p.name, p.schema.format])).toEqual([
      ["start_date", "date"],
      ["end_date", "date"],
    ]);
    expect(h.emulator.requests().map((r) => [r.endpoint, r.keyValid, r.status])).toEqual([
      ["GET /v2/docs", false, 200],
      ["GET /v2/openapi.json", false, 200],
    ]);
  });

  it("names the parameters it is configured with, under its base path, and refuses the defaults with a 422", async () => {
    const base = renamed.emulator.baseUrl;
    expect(base).toBe(`${renamed.emulator.url}/watch`);
    const page = await (await renamed.call("GET", `${base}/v2/docs`, undefined, {})).text();
    expect(page).toContain("url: '/watch/v2/openapi.json'");
    const doc = (await (await renamed.call("GET", `${base}/v2/openapi.json`, undefined, {})).json()) as Doc;
    expect(doc.servers).toEqual([{ url: "/watch" }]);
    const query = doc.paths["/v2/lists/{list_key}/changes"]!.get!.parameters!.filter((p) => p.in === "query");
    expect(query.map((p) => p.name)).toEqual(["date_from", "date_to"]);

    const created = await renamed.json<{ list_key: string }>("POST", `${base}/v2/lists`, { list_name: "x" });
    expect(created.status).toBe(201);
    const key = created.body.list_key;
    const ok = await renamed.call(
      "GET",
      `${base}/v2/lists/${key}/changes?date_from=2024-03-01&date_to=2024-03-02`,
    );
    expect(ok.status).toBe(200);
    const refused = await renamed.json(
      "GET",
      `${base}/v2/lists/${key}/changes?start_date=2024-03-01&end_date=2024-03-02`,
    );
    expect(refused).toEqual({
      status: 422,
      body: {
        detail: [
          { type: "missing", loc: ["query", "date_from"], msg: "Field required", input: null },
          { type: "missing", loc: ["query", "date_to"], msg: "Field required", input: null },
        ],
      },
    });
    // Outside the base path nothing is served.
    expect((await renamed.call("GET", "/v2/lists")).status).toBe(404);
    expect((await renamed.call("GET", "/v2/docs", undefined, {})).status).toBe(404);
  });

  it("serves no description when told not to", async () => {
    const bare = await startHarness({ describe: false });
    try {
      for (const path of ["/v2/docs", "/v2/openapi.json", "/openapi.json"])
        expect((await bare.call("GET", path)).status).toBe(404);
    } finally {
      await bare.emulator.close();
    }
  });
});

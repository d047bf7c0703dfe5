/**
 * The base addresses as the registry's document gives them: REGWATCH_WATCH_URL may end in /v2 and
 * REGWATCH_SEARCH_URL in /v1 (with a trailing slash, under a path prefix, or without a version at
 * all), and every path is built once: never /v2/v2/lists. An address naming the other interface's
 * version, or with a query, is refused by name. File origins still default to the watch origin.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRegistry } from "../../src/api/registry.ts";
import { createSearchClient, SearchQuota } from "../../src/api/search-client.ts";
import { loadConfig, requireSearch, requireWatch } from "../../src/config.ts";
import { interfaceBase } from "../../src/config-url.ts";
import type { ConfigError } from "../../src/errors.ts";
import { createLogger } from "../../src/logger.ts";
import { type HostileServer, json, startHostileServer } from "../helpers/hostile-server.ts";

const log = createLogger({ level: "silent" });

describe("interfaceBase", () => {
  it.each([
    ["https://host", "https://host", "https://host/v2"],
    ["https://host/", "https://host", "https://host/v2"],
    ["https://host/v2", "https://host", "https://host/v2"],
    ["https://host/v2/", "https://host", "https://host/v2"],
    ["https://host/V2", "https://host", "https://host/v2"],
    ["https://host/watch/v2", "https://host/watch", "https://host/watch/v2"],
    ["https://host/watch", "https://host/watch", "https://host/watch/v2"],
    ["https://host/v20", "https://host/v20", "https://host/v20/v2"],
  ])("%s: paths go after %s, the document's {watch_base_url} is %s", (address, root, versioned) => {
    expect(interfaceBase(address, "v2")).toEqual({ root, versioned });
  });
});

describe("the base addresses in the configuration", () => {
  const load = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return undefined;
    } catch (error) {
      return (error as ConfigError).message;
    }
  };

  it("accepts the addresses with or without their version", () => {
    for (const [watch, search] of [
      ["https://reg.example/v2", "https://reg.example/v1"],
      ["https://reg.example/watch/v2/", "https://reg.example/search/v1/"],
      ["https://reg.example", "https://reg.example"],
    ]) {
      const config = loadConfig({ REGWATCH_WATCH_URL: watch!, REGWATCH_SEARCH_URL: search! });
      expect(config.watchUrl).toBe(watch!.replace(/\/$/, ""));
      // Files may come from the watch interface's origin unless told otherwise.
      expect(config.fileOrigins).toEqual(["https://reg.example"]);
    }
  });

  it("refuses one interface's address given for the other, and a query or credentials", () => {
    expect(load({ REGWATCH_WATCH_URL: "https://reg.example/v1" })).toMatch(
      /REGWATCH_WATCH_URL: must not end in \/v1: this interface is v2, give its address ending in \/v2/,
    );
    expect(load({ REGWATCH_SEARCH_URL: "https://reg.example/watch/v2" })).toMatch(
      /REGWATCH_SEARCH_URL: must not end in \/v2: this interface is v1/,
    );
    expect(load({ REGWATCH_WATCH_URL: "https://reg.example/v2?key=1" })).toMatch(
      /REGWATCH_WATCH_URL: must not have a query or fragment/,
    );
    expect(load({ REGWATCH_WATCH_URL: "https://user:pw@reg.example/v2" })).toMatch(
      /REGWATCH_WATCH_URL: must not carry credentials/,
    );
  });
});

describe("paths built on a versioned base address", () => {
  let server: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.seen.length = 0;
    server.answer = (req, res) => {
      if (req.path.endsWith("/lists")) return json(res, 200, { watch_lists: [], total_watch_count: 0 });
      if (req.path.endsWith("/names"))
        return json(res, 200, { current_page: 1, has_next: false, results: [] });
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("file");
    };
  });

  it.each([
    ["/v2", "/v2/lists", "/files/a.json"],
    ["/v2/", "/v2/lists", "/files/a.json"],
    ["", "/v2/lists", "/files/a.json"],
    ["/watch/v2", "/watch/v2/lists", "/watch/files/a.json"],
    ["/watch", "/watch/v2/lists", "/watch/files/a.json"],
  ])("watch interface at %s: lists at %s, a relative file path at %s", async (suffix, lists, file) => {
    const config = loadConfig({
      REGWATCH_WATCH_URL: `${server.origin}${suffix}`,
      REGWATCH_API_KEY: "k-123456",
    });
    requireWatch(config);
    const registry = createRegistry(config, { log });
    try {
      await registry.watch.lists();
      await registry.downloadFile("files/a.json");
      await registry.downloadFile(`${server.origin}/absolute/b.json`);
    } finally {
      await registry.close();
    }
    expect(server.seen.map((r) => r.path)).toEqual([lists, file, "/absolute/b.json"]);
    // The key goes to the watch origin, whatever the path.
    expect(server.seen.every((r) => r.headers["x-api-key"] === "k-123456")).toBe(true);
  });

  it.each([
    ["/v1", "/v1/names"],
    ["/v1/", "/v1/names"],
    ["", "/v1/names"],
    ["/search/v1", "/search/v1/names"],
  ])("search interface at %s: names at %s", async (suffix, names) => {
    const config = loadConfig({
      REGWATCH_SEARCH_URL: `${server.origin}${suffix}`,
      REGWATCH_API_KEY: "k-123456",
    });
    requireSearch(config);
    const search = createSearchClient(config, { log, quota: new SearchQuota(10, 0) });
    try {
      await search.client.search("name", "kovács");
    } finally {
      await search.close();
    }
    expect(server.seen.map((r) => r.path)).toEqual([names]);
  });
});

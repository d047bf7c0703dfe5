/**
 * Bullet 6 (issue 17 #3): POST /v2/lists is never retried blindly. After an ambiguous failure
 * the lists are read and a list of that name created since the attempt is adopted, else the list
 * is created once more; a 4xx is final. Bulk item POSTs keep retrying.
 */
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ApiError } from "../../src/api/errors.ts";
import { WatchClient } from "../../src/api/watch-client.ts";
import { driveUntilSettled } from "../helpers/drive-clock.ts";
import { type HostileServer, json, type SeenRequest, startHostileServer } from "../helpers/hostile-server.ts";
import { testClient } from "./setup.ts";

let server: HostileServer;
let lists: { list_key: string; list_name: string; created_at: string }[];
beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(() => server.close());
beforeEach(() => {
  lists = [{ list_key: "1", list_name: "old", created_at: "2020-01-01" }];
});

const NOW = Date.parse("2026-03-10T10:00:00Z");

/** A registry whose list creation takes effect and then fails the answer as `fail` chooses. */
function registry(fail: (n: number, req: SeenRequest, res: ServerResponse) => boolean, takesEffect = true) {
  let posts = 0;
  server.answer = (req, res) => {
    if (req.method === "GET" && req.path === "/v2/lists") return json(res, 200, { watch_lists: lists });
    if (req.method === "POST" && req.path === "/v2/lists") {
      const n = ++posts;
      const created = {
        list_key: String(100 + n),
        list_name: JSON.parse(req.body).list_name,
        created_at: "2026-03-10",
      };
      if (takesEffect || n > 1) lists.push(created);
      if (fail(n, req, res)) return;
      return json(res, 201, created);
    }
    json(res, 404, { message: "unknown" });
  };
}

function watch() {
  const { http, clock } = testClient(server.origin, { maxAttempts: 6 });
  return {
    http,
    clock,
    client: new WatchClient(http, { baseUrl: server.origin, fromParam: "f", toParam: "t", now: () => NOW }),
  };
}

const posts = (from: number) => server.seen.slice(from).filter((r) => r.method === "POST").length;

describe("createList", () => {
  it("adopts the list a 503 hid, sending no second POST", async () => {
    registry((n, _req, res) => {
      if (n === 1) json(res, 503, { message: "unavailable" });
      return n === 1;
    });
    const { http, clock, client } = watch();
    const before = server.seen.length;
    const { value, error } = await driveUntilSettled(clock, client.createList("new"));
    expect(error).toBeUndefined();
    expect(value!.list_key).toBe("101");
    expect(posts(before)).toBe(1);
    expect(lists.filter((l) => l.list_name === "new")).toHaveLength(1);
    await http.close();
  });

  it("adopts after a reset connection too", async () => {
    registry((n, _req, res) => {
      if (n === 1) res.destroy();
      return n === 1;
    });
    const { http, clock, client } = watch();
    const before = server.seen.length;
    const { value } = await driveUntilSettled(clock, client.createList("new"));
    expect(value!.list_key).toBe("101");
    expect(posts(before)).toBe(1);
    await http.close();
  });

  it("creates once more when the failed attempt left no list", async () => {
    registry((n, _req, res) => {
      if (n === 1) json(res, 502, {});
      return n === 1;
    }, false);
    const { http, clock, client } = watch();
    const before = server.seen.length;
    const { value } = await driveUntilSettled(clock, client.createList("new"));
    expect(value!.list_key).toBe("102");
    expect(posts(before)).toBe(2);
    expect(lists.filter((l) => l.list_name === "new")).toHaveLength(1);
    await http.close();
  });

  it("does not adopt a same-named list older than the attempt", async () => {
    lists.push({ list_key: "7", list_name: "new", created_at: "2025-12-01" });
    registry((n, _req, res) => {
      if (n === 1) json(res, 500, {});
      return n === 1;
    }, false);
    const { http, clock, client } = watch();
    const { value } = await driveUntilSettled(clock, client.createList("new"));
    expect(value!.list_key).toBe("102");
    await http.close();
  });

  it("with the keys known before, adopts by key whatever the dates say", async () => {
    // An old same-named list the caller knew of is not adopted; the new one is, though its date
    // (a registry on another clock) is far in the past.
    lists.push({ list_key: "7", list_name: "new", created_at: "2020-01-01" });
    registry((n, _req, res) => {
      if (n === 1) {
        lists.at(-1)!.created_at = "2019-05-05";
        json(res, 504, {});
      }
      return n === 1;
    });
    const { http, clock, client } = watch();
    const before = server.seen.length;
    const { value } = await driveUntilSettled(clock, client.createList("new", { knownKeys: ["1", "7"] }));
    expect(value!.list_key).toBe("101");
    expect(posts(before)).toBe(1);
    await http.close();
  });

  it("does not retry a 4xx", async () => {
    registry((_n, _req, res) => {
      json(res, 422, { message: "name taken" });
      return true;
    }, false);
    const { http, clock, client } = watch();
    const before = server.seen.length;
    const { error } = await driveUntilSettled(clock, client.createList("new"));
    expect((error as ApiError).code).toBe("HTTP_CLIENT");
    expect(server.seen.length - before).toBe(1);
    await http.close();
  });

  it("keeps retrying the bulk item POST", async () => {
    let n = 0;
    server.answer = (_req, res) =>
      ++n === 1 ? json(res, 503, {}) : json(res, 200, { success: ["12345678"], failed: [] });
    const { http, clock, client } = watch();
    const before = server.seen.length;
    const { value } = await driveUntilSettled(clock, client.addItems("1", ["12345678"]));
    expect(value!.success).toEqual(["12345678"]);
    expect(server.seen.length - before).toBe(2);
    await http.close();
  });
});

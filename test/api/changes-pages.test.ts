/** Bullet 5 (issue 17 #1): paged changes answers are followed to their last page, bounded, checked. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiError } from "../../src/api/errors.ts";
import { WatchClient, type WatchClientOptions } from "../../src/api/watch-client.ts";
import { driveUntilSettled } from "../helpers/drive-clock.ts";
import { type HostileServer, json, startHostileServer } from "../helpers/hostile-server.ts";
import { testClient } from "./setup.ts";

let server: HostileServer;
beforeAll(async () => {
  server = await startHostileServer();
});
afterAll(() => server.close());

const item = (n: number) => ({
  change: "2026-01-05",
  tax_id: `100000${n}`,
  chapter: "3",
  path: `/f/${n}.json`,
  x: n,
});

/** Three pages of two items; `interval(page)` lets a test make one page disagree. */
function pagedAnswer(pages: number, interval = (_page: number) => ["2026-01-01", "2026-01-07"]) {
  server.answer = (req, res) => {
    const page = Number(req.query.get("pg") ?? "1");
    const [start, end] = interval(page);
    json(res, 200, {
      start_date: start,
      end_date: end,
      changed_items: [item(page * 10 + 1), item(page * 10 + 2)],
      has_next: page < pages,
    });
  };
}

function client(options: Partial<WatchClientOptions> = {}) {
  const { http, clock } = testClient(server.origin);
  const watch = new WatchClient(http, {
    baseUrl: `${server.origin}/api`,
    fromParam: "from",
    toParam: "to",
    pageParam: "pg",
    ...options,
  });
  return { http, clock, watch };
}

describe("paginated changes", () => {
  it("follows has_next page by page and returns one merged answer with the first page's interval", async () => {
    pagedAnswer(3);
    const { http, clock, watch } = client();
    const before = server.seen.length;
    const { value, error } = await driveUntilSettled(clock, watch.changes("L1", "2026-01-01", "2026-01-07"));
    expect(error).toBeUndefined();
    expect(value!.pages).toBe(3);
    expect(value!.startDate).toBe("2026-01-01");
    expect(value!.endDate).toBe("2026-01-07");
    expect(value!.items.map((i) => i.item.tax_id)).toEqual([
      "10000011",
      "10000012",
      "10000021",
      "10000022",
      "10000031",
      "10000032",
    ]);
    expect(value!.items.map((i) => i.raw.x)).toEqual([11, 12, 21, 22, 31, 32]);
    const sent = server.seen.slice(before);
    expect(sent.map((r) => r.query.get("pg"))).toEqual([null, "2", "3"]);
    expect(
      sent.every((r) => r.query.get("from") === "2026-01-01" && r.query.get("to") === "2026-01-07"),
    ).toBe(true);
    await http.close();
  });

  it("fails the window by name when a page reports another interval", async () => {
    pagedAnswer(3, (page) => (page === 2 ? ["2026-01-01", "2026-01-03"] : ["2026-01-01", "2026-01-07"]));
    const { http, clock, watch } = client();
    const { error } = await driveUntilSettled(clock, watch.changes("L1", "2026-01-01", "2026-01-07"));
    expect((error as ApiError).code).toBe("PAGES_DISAGREE");
    expect((error as Error).message).toMatch(
      /page 2 reports 2026-01-01..2026-01-03, page 1 reported 2026-01-01..2026-01-07/,
    );
    await http.close();
  });

  it("stops at the page bound", async () => {
    pagedAnswer(1_000_000);
    const { http, clock, watch } = client({ maxPages: 4 });
    const before = server.seen.length;
    const { error } = await driveUntilSettled(clock, watch.changes("L1", "2026-01-01", "2026-01-07"));
    expect((error as ApiError).code).toBe("TOO_MANY_PAGES");
    expect(server.seen.length - before).toBe(4);
    await http.close();
  });

  it("counts every page against one byte cap", async () => {
    pagedAnswer(50);
    const { http, clock, watch } = client({ maxResponseBytes: 1_000 });
    const { error } = await driveUntilSettled(clock, watch.changes("L1", "2026-01-01", "2026-01-07"));
    expect((error as ApiError).code).toBe("TOO_LARGE");
    expect((error as Error).message).toMatch(/REGWATCH_MAX_RESPONSE_BYTES, all pages together/);
    await http.close();
  });
});

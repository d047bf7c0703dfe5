import { afterEach, describe, expect, it } from "vitest";
import type { FaultRule } from "../../src/emulator/index.ts";
import { waitUntil } from "../helpers/wait.ts";
import { type Harness, startHarness } from "./harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.emulator.close();
  h = undefined;
});

describe("authentication and rate limit", () => {
  it("answers 401 with a message for a missing or wrong key on the watch interface", async () => {
    h = await startHarness();
    for (const headers of [{}, { "x-api-key": "nope" }] as Array<Record<string, string>>) {
      const res = await h.call("GET", "/v2/lists", undefined, headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: expect.any(String) });
    }
    expect(h.emulator.requests().map((r) => [r.status, r.keyValid])).toEqual([
      [401, false],
      [401, false],
    ]);
  });

  it("allows the configured requests per second per key, then 429 with Retry-After", async () => {
    h = await startHarness({ rateLimit: 5 });
    // Sent together, so they surely arrive within one second even on a loaded machine.
    const responses = await Promise.all(Array.from({ length: 7 }, () => h!.call("GET", "/v2/lists")));
    const statuses = responses.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const refused = responses.filter((res) => res.status === 429);
    for (const res of refused) {
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(await res.json()).toHaveProperty("message");
    }
  });

  it("limits the separate file origin by client", async () => {
    h = await startHarness({ separateFileOrigin: true, fileRateLimit: 2 });
    const url = `${h.emulator.fileBaseUrl}/2024-01-01/x/1_1.json`;
    const statuses = (await Promise.all([1, 2, 3].map(() => fetch(url)))).map((res) => res.status);
    expect(statuses.sort()).toEqual([404, 404, 429]);
  });
});

async function statusesOf(harness: Harness, path: string, count: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    try {
      const res = await harness.call("GET", path);
      const text = await res.text();
      out.push(`${res.status}:${text.length}`);
    } catch {
      out.push("error");
    }
  }
  return out;
}

describe("fault injection", () => {
  it("answers a chosen status with the rule's Retry-After", async () => {
    h = await startHarness({
      faults: [{ endpoint: "GET /v2/lists", kind: "status", status: 503, probability: 1, retryAfter: "3" }],
    });
    const res = await h.call("GET", "/v2/lists");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(h.emulator.requests()[0]).toMatchObject({ status: 503, fault: "status" });
    // Other endpoints are untouched.
    expect((await h.call("GET", "/v1/names?value=kovacs")).status).toBe(200);
  });

  it("answers 429 with Retry-After in seconds or as an HTTP date", async () => {
    h = await startHarness({
      faults: [{ kind: "rate-limit", probability: 1, retryAfter: "date:30", times: 1 }],
    });
    const res = await h.call("GET", "/v2/lists");
    expect(res.status).toBe(429);
    const date = Date.parse(res.headers.get("retry-after") ?? "");
    expect(date - Date.now()).toBeGreaterThan(20_000);
    // times: 1 spends the rule.
    expect((await h.call("GET", "/v2/lists")).status).toBe(200);
  });

  it("resets the connection", async () => {
    h = await startHarness({ faults: [{ kind: "reset", probability: 1 }] });
    await expect(h.call("GET", "/v2/lists")).rejects.toThrow();
    await waitUntil(() => h!.emulator.requests().length > 0, { what: "the reset request logged" });
    expect(h.emulator.requests()[0]).toMatchObject({ status: 0, fault: "reset" });
  });

  it("delays the answer and sends a slow body in pieces", async () => {
    h = await startHarness({
      faults: [
        { endpoint: "GET /v2/lists", kind: "delay", probability: 1, delayMs: 150 },
        { endpoint: "GET /v1/names", kind: "slow", probability: 1, delayMs: 40 },
      ],
    });
    let started = Date.now();
    expect((await h.call("GET", "/v2/lists")).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    started = Date.now();
    const res = await h.call("GET", "/v1/names?value=kovacs");
    const body = (await res.json()) as { results: unknown[] };
    expect(body.results.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150); // four pauses between five pieces
  });

  it("truncates a body below its declared length", async () => {
    h = await startHarness({ faults: [{ kind: "truncate", probability: 1 }] });
    const outcome = await h
      .call("GET", "/v1/names?value=kovacs")
      .then((res) => res.text())
      .catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(Error);
    expect(h.emulator.requests()[0]).toMatchObject({ status: 200, fault: "truncate" });
  });

  it("sends malformed JSON under a 200", async () => {
    h = await startHarness({ faults: [{ kind: "malformed", probability: 1 }] });
    const res = await h.call("GET", "/v2/lists");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(() => JSON.parse(text)).toThrow();
  });

  it("spoils the answer after the request took effect", async () => {
    h = await startHarness({
      faults: [{ endpoint: "POST /v2/lists", kind: "reset", probability: 1, times: 1 }],
    });
    await expect(h.call("POST", "/v2/lists", { list_name: "lost answer" })).rejects.toThrow();
    expect(h.emulator.listsSnapshot().map((l) => l.list_name)).toEqual(["lost answer"]);
  });

  it("draws the same faults for the same seed and requests, whatever the order", async () => {
    const rules: FaultRule[] = [{ kind: "status", status: 500, probability: 0.5 }];
    const paths = ["/v2/lists", "/v1/names?value=kovacs", "/v1/names?value=szabo", "/v2/lists/none"];
    const run = async (seed: number, order: string[]) => {
      const harness = await startHarness({ seed, faults: rules });
      const out: Record<string, string[]> = {};
      for (const path of order) out[path] = await statusesOf(harness, path, 6);
      await harness.emulator.close();
      return out;
    };
    const first = await run(3, paths);
    expect(await run(3, [...paths].reverse())).toEqual(first);
    // Retries of one request get fresh draws: both outcomes occur.
    const all = Object.values(first).flat();
    expect(all.some((s) => s.startsWith("500"))).toBe(true);
    expect(all.some((s) => !s.startsWith("500"))).toBe(true);
    expect(await run(4, paths)).not.toEqual(first);
  });

  it("replaces the rules at run time and validates them", async () => {
    h = await startHarness();
    h.emulator.setFaults([{ kind: "status", status: 502, probability: 1 }]);
    expect((await h.call("GET", "/v2/lists")).status).toBe(502);
    h.emulator.setFaults([]);
    expect((await h.call("GET", "/v2/lists")).status).toBe(200);
    expect(() => h!.emulator.setFaults([{ kind: "bogus" as "status", probability: 2 }])).toThrow(
      /kind.*probability/s,
    );
  });
});

describe("latency", () => {
  it("adds the configured delay to registry and file answers", async () => {
    h = await startHarness({ latencyMs: 60 });
    const started = Date.now();
    await h.call("GET", "/v2/lists");
    await fetch(`${h.emulator.fileBaseUrl}/2024-01-01/companies/1_1.json`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(115);
  });
});

import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.ts";
import { type Harness, startHarness } from "./harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.emulator.close());

const admin = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${h.emulator.url}/_emulator/${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
};

describe("admin routes", () => {
  it("shows and moves the simulated clock", async () => {
    expect((await admin("GET", "clock")).body).toEqual({
      now: "2024-03-11T08:00:00.000Z",
      frozen: true,
      lastLoadedDay: "2024-03-10",
    });
    expect((await admin("POST", "clock", { advanceMs: 86_400_000 })).body).toMatchObject({
      now: "2024-03-12T08:00:00.000Z",
    });
    expect((await admin("POST", "clock", { now: "2024-03-11T08:00:00Z" })).body).toMatchObject({
      lastLoadedDay: "2024-03-10",
    });
    expect((await admin("POST", "clock", {})).status).toBe(400);
  });

  it("creates lists with history and lists them with activation dates", async () => {
    const created = await admin("POST", "lists", {
      name: "seeded",
      createdAt: "2024-01-01",
      size: 3,
      addedAt: "2024-01-10",
    });
    expect(created.status).toBe(201);
    const list = created.body as {
      list_key: string;
      items: Array<{ added_at: string; active_from: string }>;
    };
    expect(list.items).toHaveLength(3);
    expect(list.items.every((i) => i.added_at === "2024-01-10" && i.active_from === "2024-01-10")).toBe(true);
    const withInstant = await admin("POST", "lists", {
      name: "instant",
      createdAt: "2024-01-01T10:00:00Z",
      size: 1,
    });
    expect((withInstant.body as { items: Array<{ active_from: string }> }).items[0]!.active_from).toBe(
      "2024-01-02",
    );
    expect((await admin("GET", "lists")).body).toHaveLength(2);
    expect((await admin("POST", "lists", { name: "bad", createdAt: "soon" })).status).toBe(400);
    const refused = await admin("POST", "lists", {
      name: "bad ids",
      createdAt: "2024-01-01",
      taxIds: ["12345678"],
    });
    expect(refused).toEqual({ status: 400, body: { message: expect.stringContaining("12345678") } });
  });

  it("adds an explicit change that the changes endpoint then reports", async () => {
    const snapshot = h.emulator.listsSnapshot().find((l) => l.list_name === "seeded")!;
    const taxId = snapshot.items[0]!.tax_id;
    const added = await admin("POST", "changes", {
      tax_id: taxId,
      change: "2024-02-14",
      chapter: "finance",
      changed_headings: ["bank_accounts"],
    });
    expect(added.status).toBe(201);
    const res = await h.json<{ changed_items: Array<{ path: string; chapter: string }> }>(
      "GET",
      `/v2/lists/${snapshot.list_key}/changes?start_date=2024-02-14&end_date=2024-02-14`,
    );
    expect(res.body.changed_items).toContainEqual(added.body);
    expect((await fetch((added.body as { path: string }).path)).status).toBe(200);
    expect((await admin("POST", "changes", { tax_id: "99999999", change: "2024-02-14" })).status).toBe(400);
  });

  it("samples businesses by type and limit", async () => {
    const { body } = await admin("GET", "businesses?type=civil_orgs&limit=4");
    const records = body as Array<Record<string, unknown>>;
    expect(records).toHaveLength(4);
    for (const r of records) {
      expect(r.type).toBe("civil_orgs");
      expect(String(r.tax_id)).toMatch(/^\d{8}$/);
      expect(String(r.tax_number)).toMatch(/^\d{8}-\d-\d{2}$/);
      expect(String(r.social_tax_number)).toBe(`HU${r.tax_id}`);
    }
  });

  it("logs requests, counts them by endpoint and status, sets faults and resets the log", async () => {
    await admin("POST", "reset-log");
    await h.call("GET", "/v2/lists");
    await h.call("GET", "/v2/lists", undefined, {});
    await h.call("GET", "/v1/names?value=zöld");
    const log = (await admin("GET", "requests")).body as Array<Record<string, unknown>>;
    expect(log.map((r) => [r.endpoint, r.status, r.keyValid])).toEqual([
      ["GET /v2/lists", 200, true],
      ["GET /v2/lists", 401, false],
      ["GET /v1/names", 200, true],
    ]);
    expect(log[2]).toMatchObject({
      origin: "api",
      method: "GET",
      path: "/v1/names",
      query: { value: "zöld" },
    });
    expect(log[2]!.simAt).toBe("2024-03-11T08:00:00.000Z");
    expect((await admin("GET", "stats")).body).toEqual({
      total: 3,
      byEndpoint: { "GET /v2/lists": { "200": 1, "401": 1 }, "GET /v1/names": { "200": 1 } },
    });
    expect((await admin("POST", "faults", [{ kind: "status", status: 500, probability: 1 }])).status).toBe(
      200,
    );
    expect((await h.call("GET", "/v2/lists")).status).toBe(500);
    expect((await admin("POST", "faults", { faults: [] })).body).toEqual([]);
    expect((await admin("POST", "faults", [{ kind: "nope", probability: 1 }])).status).toBe(400);
    expect((await admin("POST", "reset-log")).status).toBe(204);
    expect((await admin("GET", "requests")).body).toEqual([]);
  });
});

describe("determinism", () => {
  it("generates the same data for the same seed and other data for another", async () => {
    const sample = async (seed: number | string) => {
      const e = await startEmulator({ seed, port: 0 });
      const records = e.sampleBusinesses({ limit: 20 });
      await e.close();
      return records;
    };
    expect(await sample(11)).toEqual(await sample(11));
    expect(await sample("eleven")).not.toEqual(await sample(11));
  });

  it("serves a register of 200,000 businesses and finds them by registration number", async () => {
    // How fast it starts is measured by `npm run bench` (emulator_start_200k_s), not asserted here.
    const big = await startEmulator({ businesses: 200_000, seed: 2 });
    try {
      const [last] = big.sampleBusinesses({ limit: 1 });
      const res = await fetch(`${big.url}/v1/reg-numbers?value=${last!.registration_number}`, {
        headers: { "x-api-key": big.apiKey },
      });
      expect(((await res.json()) as { results: unknown[] }).results).toHaveLength(1);
    } finally {
      await big.close();
    }
  });
});

describe("regwatch emulator command", () => {
  it("prints the real port, the env lines, and exits 0 on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      [
        "bin/regwatch.js",
        "emulator",
        "--port",
        "0",
        "--seed",
        "5",
        "--now",
        "2024-03-11T08:00:00Z",
        "--frozen",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", () => {
        if (out.includes("REGWATCH_FILE_ORIGINS")) resolve();
      });
      void exited.then((code) =>
        reject(new Error(`the emulator exited (${code}) before it printed its lines: ${out}`)),
      );
    });
    const watchUrl = /REGWATCH_WATCH_URL=(\S+)/.exec(out)![1]!;
    expect(watchUrl).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*\/v2$/);
    const url = watchUrl.replace(/\/v2$/, "");
    expect(out).toContain(`REGWATCH_SEARCH_URL=${url}/v1`);
    expect(out).toContain("REGWATCH_API_KEY=emulator-key");
    const res = await fetch(`${url}/_emulator/clock`);
    expect(((await res.json()) as { now: string }).now).toBe("2024-03-11T08:00:00.000Z");
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 30_000);

  it("exits 64 on a bad argument", async () => {
    const child = spawn(process.execPath, ["bin/regwatch.js", "emulator", "--now", "soon"], {
      stdio: "ignore",
    });
    expect(await new Promise((resolve) => child.on("exit", resolve))).toBe(64);
  }, 30_000);
});

/** Issue 14: /readyz answers 503 from the moment a stop begins, before the work in flight ends. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseProbe, startHealthServer } from "../../src/daemon/http-server.ts";
import { DaemonMetrics } from "../../src/daemon/metrics.ts";
import { silentLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

describe("/readyz during a stop", () => {
  it("is 200 while the database is ready, 503 once markStopping is called", async () => {
    const probe = new DatabaseProbe(test.url, "regwatch");
    const metrics = new DaemonMetrics({
      probe: async () => undefined,
      registryTz: "UTC",
      limiters: () => new Map(),
    });
    const server = await startHealthServer({ port: 0, host: "127.0.0.1", probe, metrics, log: silentLogger });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      server.markStopping();
      const stopping = await fetch(`${base}/readyz`);
      expect(stopping.status).toBe(503);
      expect(await stopping.text()).toContain("stopping");
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    } finally {
      await server.close();
      await probe.close();
    }
  });
});

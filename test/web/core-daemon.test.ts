/**
 * `regwatch daemon --web`: the console is served from the daemon's process, beside its health
 * server, and stops with it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { daemonEnv, startDaemon } from "../daemon/harness.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

let emulator: RunningEmulator;
let t: TestDatabase;

beforeAll(async () => {
  emulator = await startEmulator({ seed: 3, businesses: 200 });
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
  await emulator?.close();
});

describe("daemon --web", () => {
  it("serves the console until the daemon stops", async () => {
    const daemon = startDaemon(daemonEnv(emulator, t, { REGWATCH_WEB_PORT: "0" }), ["--web"]);
    try {
      const line = await daemon.waitFor((l) => typeof l.url === "string" && /web console on/.test(l.msg));
      const url = line.url as string;
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      const page = await fetch(`${url}/`, { redirect: "manual" });
      expect(page.status).toBe(303);
      expect(page.headers.get("location")).toBe("/login");
      expect((await fetch(`${url}/login`)).status).toBe(200);
      expect((await daemon.stop()).code).toBe(0);
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } finally {
      await daemon.stop();
    }
  });
});

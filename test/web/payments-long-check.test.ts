/**
 * A check that runs longer than the console's idle cut keeps its answer (issue 48, point 14): the
 * console is given a 1 s idle cut and the registry answers each request after 2.5 s, so a check
 * with "online" ticked is silent on its connection for longer than the cut. The uploader gets the
 * batch's page, and the batch is recorded; the idle cut still closes a silent keep-alive socket.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { createUser, type SignedIn, signIn, startTestConsole, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorEnv } from "../helpers/sync.ts";

let t: TestDatabase;
let emulator: RunningEmulator;
let web: TestConsole;
let reviewer: SignedIn;

beforeAll(async () => {
  t = await createTestDatabase();
  emulator = await startEmulator({ seed: 7, businesses: 20, latencyMs: 2500 });
  web = await startTestConsole(t.db, { env: emulatorEnv(emulator), timeouts: { idleMs: 1000 } });
  await createUser(t.db, "vera", "reviewer");
  reviewer = await signIn(web.url, "vera");
}, 60_000);
afterAll(async () => {
  await web?.close();
  await emulator?.close();
  await t?.drop();
});

describe("a check longer than the idle cut", () => {
  it("answers with the batch's page, and the batch is recorded", async () => {
    const form = new FormData();
    form.append("_csrf", reviewer.csrf);
    form.append("online", "1");
    form.append(
      "file",
      new Blob(["Adószám;Számlaszám;Összeg\n10000001;11773016-11111018-00000000;5\n"]),
      "a.csv",
    );
    const answer = await fetch(`${web.url}/payments`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: reviewer.cookie },
      body: form,
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("location")).toMatch(/^\/payments\/[0-9a-f-]{36}$/);
    expect(emulator.requests().some((r) => r.endpoint.startsWith("GET /v1/"))).toBe(true);
    const [batches] = await t.db.sql<
      { n: number }[]
    >`select count(*)::int as n from ${t.db.sql.t.payment_batches}`;
    expect(batches!.n).toBe(1);
  }, 60_000);

  it("still closes a keep-alive connection that stays silent past the cut", async () => {
    const { port } = new URL(web.url);
    const socket = net.connect(Number(port), "127.0.0.1");
    const started = Date.now();
    await new Promise<void>((resolve) => socket.on("connect", () => resolve()));
    await new Promise<void>((resolve) => socket.on("close", () => resolve()));
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);
});

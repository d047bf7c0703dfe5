/**
 * A `regwatch sync` killed (SIGKILL) after its commit, while it delivers: nothing is lost, and
 * once the dead process's leases run out `alerts deliver` sends every message, the interrupted
 * ones again under the same id with the same body.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { addDays, localDateTime } from "../../src/dates.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { childBaseEnv } from "../helpers/child-env.ts";
import { BIN, runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { sampleTaxIds, seedList } from "../helpers/sync.ts";
import { waitUntil } from "../helpers/wait.ts";
import { type Receiver, SECRET, startReceiver } from "./harness.ts";

const TZ = "Europe/Budapest";

describe("a sync killed between its commit and delivery", () => {
  let emulator: RunningEmulator;
  let t: TestDatabase;
  let receiver: Receiver;

  beforeAll(async () => {
    emulator = await startEmulator({
      seed: 9,
      businesses: 1500,
      rateLimit: 100,
      changesPerBusinessPerMonth: 3,
    });
    const today = localDateTime(new Date(), TZ).date;
    const ids = sampleTaxIds(emulator, 8);
    await seedList(emulator, { name: "north", createdAt: addDays(today, -20), taxIds: ids.slice(0, 5) });
    await seedList(emulator, { name: "south", createdAt: addDays(today, -20), taxIds: ids.slice(3) });
    t = await createTestDatabase();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.drop();
    await emulator?.close();
  });

  it("loses nothing: alerts deliver sends everything afterwards", async () => {
    await insertAlertRule(t.db.sql, {
      name: "all",
      lists: [],
      headings: [],
      channel: "webhook",
      target: receiver.url,
      digest: false,
    });
    const env = {
      DATABASE_URL: t.url,
      REGWATCH_WATCH_URL: emulator.url,
      REGWATCH_API_KEY: emulator.apiKey,
      REGWATCH_TZ: TZ,
      REGWATCH_RATE_LIMIT: "100",
      REGWATCH_WEBHOOK_SECRET: SECRET,
      // The receiver listens on 127.0.0.1: private targets are allowed explicitly.
      REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS: "true",
      REGWATCH_LOG_LEVEL: "warn",
    };
    // The receiver holds the first message without answering; the sync is killed right then.
    receiver.answer({ status: 0 });
    const child = spawn(process.execPath, [BIN, "sync", "--json"], {
      env: { ...childBaseEnv(), ...env },
      stdio: "ignore",
    });
    receiver.onRequest = () => child.kill("SIGKILL");
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    receiver.onRequest = undefined;
    expect(code).toBeNull();
    // Up to REGWATCH_ALERT_TARGET_CONCURRENCY messages were in flight to the receiver.
    expect(receiver.received.length).toBeGreaterThanOrEqual(1);
    expect(receiver.received.length).toBeLessThanOrEqual(4);
    const interrupted = new Map(receiver.received.map((r) => [r.id, JSON.stringify(r.body)]));

    const [run] = await t.db.sql`select status from regwatch.runs where kind = 'sync'`;
    expect(run!.status).toBe("ok");
    const alerts = Number((await t.db.sql`select count(*)::int as n from regwatch.alerts`)[0]!.n);
    expect(alerts).toBeGreaterThan(1);
    // The killed process's transaction is rolled back once the server notices it is gone.
    await waitUntil(
      async () => {
        const [busy] = await t.db.sql`
          select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`;
        return busy!.n === 0;
      },
      { what: "the killed process's transaction rolled back" },
    );
    const [unsent] = await t.db
      .sql`select count(*)::int as n from regwatch.alert_deliveries where status = 'pending'`;
    expect(unsent!.n).toBe(alerts);
    // The dead process's claims hold until their lease runs out; here it has.
    const [leased] = await t.db.sql`
      select count(*)::int as n from regwatch.alert_deliveries where lease_until > now()`;
    expect(leased!.n).toBeGreaterThanOrEqual(interrupted.size);
    await t.db.sql`update regwatch.alert_deliveries set lease_until = now() - interval '1 second'
                   where lease_until is not null`;

    receiver.answer({ status: 200 });
    const delivered = await runCli(["alerts", "deliver", "--json"], env);
    expect(delivered.stderr).toBe("");
    expect(delivered.code).toBe(0);
    expect(JSON.parse(delivered.stdout)).toMatchObject({ sent: alerts, dead: 0, retrying: 0 });
    const rows = await t.db.sql<
      { message_id: string; status: string }[]
    >`select message_id, status from regwatch.alert_deliveries`;
    expect(rows.every((r) => r.status === "sent")).toBe(true);
    const seen = new Set(receiver.received.slice(interrupted.size).map((r) => r.id));
    expect(seen).toEqual(new Set(rows.map((r) => r.message_id)));
    for (const [id, body] of interrupted) {
      expect(seen.has(id)).toBe(true);
      const again = receiver.received.slice(interrupted.size).find((r) => r.id === id)!;
      expect(JSON.stringify(again.body)).toBe(body);
    }
    expect(receiver.received.every((r) => r.verified)).toBe(true);
  }, 120_000);
});

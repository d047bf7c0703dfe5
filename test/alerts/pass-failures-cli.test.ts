/**
 * The built command when every webhook send throws inside regwatch (a secret the configuration's
 * pattern lets through and the signing library cannot decode): `sync` still finishes its run but
 * says delivery failed, each message is charged an attempt, and `status`, `doctor` and `alerts
 * deliver` (separate processes) say that delivery fails and why, until a secret that signs is set.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, localDateTime } from "../../src/dates.ts";
import type { DoctorReport } from "../../src/doctor/report.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorEnv, sampleTaxIds, seedList } from "../helpers/sync.ts";
import { type Receiver, ruleForEveryChange, SECRET, startReceiver } from "./harness.ts";

const SHORT_SECRET = "whsec_abc";
const THROWN = /the webhook send failed inside regwatch, not at the receiver: Base64Coder: incorrect padding/;

describe("delivery failing inside regwatch, seen from the command line", () => {
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
    const today = localDateTime(new Date(), "Europe/Budapest").date;
    await seedList(emulator, {
      name: "north",
      createdAt: addDays(today, -20),
      taxIds: sampleTaxIds(emulator, 8),
    });
    t = await createTestDatabase();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.drop();
    await emulator?.close();
  });

  const env = (secret: string) =>
    emulatorEnv(emulator, {
      DATABASE_URL: t.url,
      REGWATCH_WEBHOOK_SECRET: secret,
      REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS: "true",
    });
  const messages = () =>
    t.db.sql<{ status: string; attempts: number; last_error: string | null }[]>`
      select status, attempts, last_error from regwatch.alert_deliveries order by id`;
  const deliveryCheck = async (secret: string) => {
    const doctor = await runCli(["doctor", "--json"], env(secret), 120_000);
    const report = JSON.parse(doctor.stdout) as DoctorReport;
    return { code: doctor.code, report, check: report.checks.find((c) => c.check === "alert delivery") };
  };

  it("says so in sync, status, doctor and alerts deliver, and stops saying it once a message goes out", async () => {
    await ruleForEveryChange(t.db.sql, receiver.url);

    const sync = await runCli(["sync"], env(SHORT_SECRET), 120_000);
    expect(sync.stderr).not.toContain(SHORT_SECRET);
    expect(sync.code).toBe(0);
    // Each message tried was charged; a newer one about the same business waits behind it (and
    // goes once that one is dead, as behind any failing message).
    const queued = await messages();
    const tried = queued.filter((m) => m.attempts === 1);
    expect(tried.length).toBeGreaterThan(1);
    expect(queued.every((m) => m.status === "pending" && m.attempts <= 1)).toBe(true);
    expect(tried.every((m) => THROWN.test(m.last_error ?? ""))).toBe(true);
    expect(receiver.received).toHaveLength(0);
    expect(sync.stdout).toMatch(
      new RegExp(
        `  alert delivery failed: ${THROWN.source}; ${tried.length} message\\(s\\) charged a failed attempt \\(\`regwatch status\` shows it\\)\\n`,
      ),
    );

    const status = await runCli(["status"], env(SHORT_SECRET));
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(
      new RegExp(
        `Alert messages: 0 sent, ${queued.length} pending \\(the oldest queued \\d+ (s|min) ago\\), 0 dead`,
      ),
    );
    expect(status.stdout).toMatch(
      new RegExp(`  DELIVERY FAILING: the last delivery pass failed, the last at .*: ${THROWN.source}`),
    );
    expect(status.stdout).toMatch(/ {2}what to do: fix what the error names; .*`regwatch alerts deliver`/);
    const json = JSON.parse((await runCli(["status", "--json"], env(SHORT_SECRET))).stdout);
    expect(json.alertDelivery).toMatchObject({
      failuresInRow: 1,
      failuresTotal: 1,
      lastFailureMessages: tried.length,
    });
    expect(json.alertDelivery.lastError).toMatch(THROWN);

    const failing = await deliveryCheck(SHORT_SECRET);
    expect(failing.code).toBe(1);
    expect(failing.report.checks.filter((c) => c.status === "fail").map((c) => c.check)).toEqual([
      "alert delivery",
    ]);
    expect(failing.check?.message).toMatch(
      new RegExp(
        `^the last delivery pass failed, the last at .*: ${THROWN.source}; messages: ${queued.length} pending`,
      ),
    );
    expect(failing.check?.next).toMatch(/`regwatch alerts deliver` tries every pending message at once$/);

    const again = await runCli(["alerts", "deliver"], env(SHORT_SECRET));
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      new RegExp(
        `^regwatch: alert delivery failed: ${THROWN.source} \\(${tried.length} message\\(s\\) charged a failed attempt\\)$`,
        "m",
      ),
    );
    expect((await messages()).map((m) => m.attempts)).toEqual(queued.map((m) => (m.attempts === 1 ? 2 : 0)));
    expect((await runCli(["status"], env(SHORT_SECRET))).stdout).toMatch(
      /the last 2 delivery passes failed since /,
    );

    const fixed = await runCli(["alerts", "deliver", "--json"], env(SECRET));
    expect(fixed.stderr).toBe("");
    expect(fixed.code).toBe(0);
    expect(JSON.parse(fixed.stdout)).toMatchObject({ sent: queued.length, unexpected: 0 });
    expect(receiver.received).toHaveLength(queued.length);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    const healed = await runCli(["status"], env(SECRET));
    expect(healed.stdout).not.toMatch(/DELIVERY FAILING/);
    expect(healed.stdout).toMatch(
      / {2}the last failed delivery pass was at .*incorrect padding.*; passes deliver again since /,
    );
    const working = await deliveryCheck(SECRET);
    expect(working.check).toMatchObject({ status: "ok" });
    expect(working.check?.message).toMatch(
      /^no delivery pass is failing; messages: none pending; the last failed/,
    );
    for (const out of [sync, status, again, healed].flatMap((r) => [r.stdout, r.stderr]))
      expect(out).not.toContain(SHORT_SECRET);
  }, 300_000);
});

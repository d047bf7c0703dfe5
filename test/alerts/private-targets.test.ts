/**
 * Alert targets stay outside (issue 48, point 6): loopback, link-local and private targets are
 * refused when a rule is written (exit 64) unless REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS=true, and a
 * webhook whose name resolves to 127.0.0.1 is not sent to: the message is dead with the reason.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deliverAlerts } from "../../src/alerts/deliver.ts";
import { outsideLookup } from "../../src/alerts/private-targets.ts";
import { silentLogger } from "../../src/logger.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  alertConfig,
  type Receiver,
  ruleForEveryChange,
  SECRET,
  startReceiver,
  storeRun,
} from "./harness.ts";

const SETTING = "REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS";

describe("alert targets stay outside", () => {
  let t: TestDatabase;
  let receiver: Receiver;
  const env = (allow: boolean) => ({
    DATABASE_URL: t.url,
    REGWATCH_WEBHOOK_SECRET: SECRET,
    REGWATCH_SMTP_URL: "smtp://127.0.0.1:9",
    REGWATCH_MAIL_FROM: "regwatch@example.com",
    ...(allow ? { [SETTING]: "true" } : {}),
  });
  const cli = (allow: boolean, ...args: string[]) => runCli(["alerts", ...args], env(allow));
  /** The receiver's address under a name that resolves to 127.0.0.1. */
  const byName = () => receiver.url.replace("127.0.0.1", "localhost");

  beforeAll(async () => {
    t = await createTestDatabase();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.drop();
  });
  beforeEach(async () => {
    receiver.received.length = 0;
    await t.db.sql`delete from regwatch.alert_rules`;
  });

  const inside: [string, string][] = [
    ["webhook", "http://127.0.0.1:8080/hook"],
    ["webhook", "http://169.254.169.254/latest/meta-data"],
    ["webhook", "http://[fd00::1]/hook"],
    ["webhook", "http://[::ffff:10.0.0.1]/hook"],
    ["webhook", "http://localhost/hook"],
    ["email", "a@[127.0.0.1]"],
  ];

  it("refuses a private target when a rule is written, naming it and the setting; stores nothing", async () => {
    for (const [channel, target] of inside) {
      const added = await cli(false, "rule", "add", "inside", "--channel", channel, "--target", target);
      expect(added.code, target).toBe(64);
      expect(added.stderr).toContain(target);
      expect(added.stderr).toContain(`${SETTING}=true`);
    }
    expect(await t.db.sql`select 1 from regwatch.alert_rules`).toHaveLength(0);
    const outside = await cli(
      false,
      "rule",
      "add",
      "out",
      "--channel",
      "webhook",
      "--target",
      "https://hooks.example.com/x",
    );
    expect(outside.code, outside.stderr).toBe(0);
  }, 120_000);

  it("accepts a private target when the operator allows it", async () => {
    for (const [i, [channel, target]] of inside.entries()) {
      const added = await cli(true, "rule", "add", `inside-${i}`, "--channel", channel, "--target", target);
      expect(added.code, `${target}: ${added.stderr}`).toBe(0);
    }
  }, 120_000);

  it("does not send to a name that resolves to 127.0.0.1 unless allowed", async () => {
    expect((await cli(true, "rule", "add", "local", "--channel", "webhook", "--target", byName())).code).toBe(
      0,
    );
    receiver.answer({ status: 204 });
    const refused = await cli(false, "test", "local");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/localhost resolves to 127\.0\.0\.1/);
    expect(refused.stderr).toContain(SETTING);
    expect(receiver.received).toHaveLength(0);
    const sent = await cli(true, "test", "local");
    expect(sent.code, sent.stderr).toBe(0);
    expect(receiver.received).toHaveLength(1);
  }, 120_000);

  it("an e-mail to an address literal inside is refused at send time, the SMTP server never asked", async () => {
    expect(
      (await cli(true, "rule", "add", "lit", "--channel", "email", "--target", "a@[127.0.0.1]")).code,
    ).toBe(0);
    const refused = await cli(false, "test", "lit");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("127.0.0.1 is a loopback");
    expect(refused.stderr).not.toMatch(/ECONNREFUSED|not reachable/);
  }, 120_000);

  it("a queued message to such a name is dead with the reason, not retried, the receiver untouched", async () => {
    await ruleForEveryChange(t.db.sql, byName());
    await storeRun(t.db.sql, "sync", [
      { taxId: "10000017", date: "2026-11-22", headings: ["seat"], lists: ["a"] },
    ]);
    const report = await deliverAlerts(
      { sql: t.db.sql, config: alertConfig({ alertAllowPrivateTargets: false }), log: silentLogger },
      {},
    );
    expect(report).toMatchObject({ dead: 1, sent: 0, retrying: 0 });
    const [d] = await t.db.sql<{ status: string; last_error: string }[]>`
      select status, last_error from regwatch.alert_deliveries`;
    expect(d).toMatchObject({ status: "dead" });
    expect(d!.last_error).toMatch(/resolves to 127\.0\.0\.1.*REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS=true/);
    expect(receiver.received).toHaveLength(0);
  });

  it("checks every address a name resolves to, and connects to one of those it checked", async () => {
    const answer = (addresses: string[]) =>
      new Promise<{ error: Error | null; address?: string }>((resolve) =>
        outsideLookup((_h, _o, cb) =>
          cb(
            null,
            addresses.map((address) => ({ address, family: 4 })),
          ),
        )("rebind.example", { family: 0 }, (error, address) =>
          resolve({ error, address: address as string }),
        ),
      );
    expect((await answer(["93.184.216.34", "10.0.0.5"])).error?.message).toMatch(/resolves to 10\.0\.0\.5/);
    expect(await answer(["93.184.216.34"])).toEqual({ error: null, address: "93.184.216.34" });
  });
});

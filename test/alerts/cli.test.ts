/** `regwatch alerts` as a subprocess: rules, usage errors, the lifecycle, test messages. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type Receiver, SECRET, startReceiver, storeRun } from "./harness.ts";

describe("regwatch alerts", () => {
  let t: TestDatabase;
  let receiver: Receiver;
  // The receiver listens on 127.0.0.1: private targets are allowed explicitly.
  const env = () => ({
    DATABASE_URL: t.url,
    REGWATCH_WEBHOOK_SECRET: SECRET,
    REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS: "true",
  });
  const cli = (...args: string[]) => runCli(["alerts", ...args], env());

  beforeAll(async () => {
    t = await createTestDatabase();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.drop();
  });

  it("adds, lists and removes rules; bad arguments exit 64 and name what is wrong", async () => {
    const banks = [
      "rule",
      "add",
      "banks",
      "--channel",
      "webhook",
      "--target",
      receiver.url,
      "--list",
      "suppliers",
      "--heading",
      "bank_accounts",
      "--digest",
    ];
    // Nothing is known yet of the list; bank_accounts is a heading the registry is known to send.
    const unknown = await cli(...banks);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toMatch(
      /--list "suppliers": no such list, remote \(by key or name\) or desired \(known: none yet\)/,
    );
    expect(unknown.stderr).not.toMatch(/--heading/);
    await t.db.sql`insert into regwatch.desired_lists (list_name) values ('suppliers')`;
    const added = await cli(...banks, "--new-heading");
    expect(added.stderr).toMatch(/note: no stored change has named bank_accounts yet/);
    expect(added.code).toBe(0);
    const again = await cli("rule", "add", "banks", "--channel", "notify", "--target", "x");
    expect(again.code).toBe(64);
    expect(again.stderr).toMatch(/exists already/);
    const bad = await cli("rule", "add", "pigeons", "--channel", "pigeon", "--target", "loft");
    expect(bad.code).toBe(64);
    expect(bad.stderr).toMatch(/--channel "pigeon" is not one of webhook, email, notify/);
    const badMail = await cli(
      "rule",
      "add",
      "m",
      "--channel",
      "email",
      "--target",
      "ops@example.com, nobody",
    );
    expect(badMail.code).toBe(64);
    expect(badMail.stderr).toMatch(/not an e-mail address: "nobody"/);
    const list = await cli("rule", "list", "--json");
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({
        name: "banks",
        channel: "webhook",
        lists: ["suppliers"],
        headings: ["bank_accounts"],
        digest: true,
        enabled: true,
      }),
    ]);
    expect((await cli("list", "--status", "weird")).code).toBe(64);
    expect((await cli("ack", "abc", "--by", "anna")).code).toBe(64);
    expect((await cli("ack", "1", "--by", " ", "--note", "no who")).code).toBe(64);
    expect((await cli("snooze", "1", "--until", "2026-02-30", "--by", "bela")).code).toBe(64);
    expect((await cli("rule", "remove", "nope")).code).toBe(64);
    expect((await cli("rule", "remove", "banks")).code).toBe(0);
    expect(JSON.parse((await cli("rule", "list", "--json")).stdout)).toEqual([]);
  }, 180_000);

  it("records who acknowledged, when and why; a snoozed alert is open again after its date", async () => {
    await insertAlertRule(t.db.sql, {
      name: "all",
      lists: [],
      headings: [],
      channel: "notify",
      target: "regwatch_test",
      digest: false,
    });
    await storeRun(t.db.sql, "sync", [
      { taxId: "20000001", date: "2026-11-20", headings: ["seat"], lists: ["suppliers"] },
      { taxId: "20000002", date: "2026-11-20", headings: ["name"], lists: ["suppliers"] },
    ]);
    const delivered = await cli("deliver", "--json");
    expect(delivered.code).toBe(0);
    expect(JSON.parse(delivered.stdout)).toMatchObject({ raised: 2, sent: 2 });
    const ids = (await t.db.sql<{ id: number }[]>`select id::int from regwatch.alerts order by id`).map(
      (r) => r.id,
    );

    expect((await cli("ack", String(ids[0]), "--by", "anna", "--note", "called the supplier")).code).toBe(0);
    const [acked] = await t.db
      .sql`select status, status_by, status_note, status_at from regwatch.alerts where id = ${ids[0]!}`;
    expect(acked).toMatchObject({
      status: "acknowledged",
      status_by: "anna",
      status_note: "called the supplier",
    });
    expect(Math.abs((acked!.status_at as Date).getTime() - Date.now())).toBeLessThan(60_000);

    const missing = await cli("resolve", "999999", "--by", "anna");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no alert with id 999999/);
    expect((await cli("snooze", String(ids[1]), "--until", "2099-01-01", "--by", "bela")).code).toBe(0);
    let listed = JSON.parse((await cli("list", "--json")).stdout);
    expect(listed.alerts.find((a: { id: number }) => a.id === ids[1])).toMatchObject({
      status: "snoozed",
      snoozedUntil: "2099-01-01",
      statusBy: "bela",
    });

    // A snooze whose last day has passed: open again, in the view and in the list.
    await t.db.sql`update regwatch.alerts set snoozed_until = '2020-01-01' where id = ${ids[1]!}`;
    const open = await t.db.sql`select alert_id::int from regwatch.v_open_alerts order by alert_id`;
    expect(open.map((r) => r.alert_id)).toEqual([ids[1]]);
    listed = JSON.parse((await cli("list", "--json")).stdout);
    expect(listed.alerts.find((a: { id: number }) => a.id === ids[1])).toMatchObject({
      status: "open",
      statusNote: "snooze ended 2020-01-01",
    });
  }, 180_000);

  it("sends a clearly marked test message; exit 0 only when the receiver accepted it", async () => {
    expect((await cli("rule", "add", "hook", "--channel", "webhook", "--target", receiver.url)).code).toBe(0);
    receiver.answer({ status: 204 });
    const ok = await cli("test", "hook");
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    const last = receiver.received.at(-1)!;
    expect(last.verified).toBe(true);
    expect(last.body).toMatchObject({ type: "test", data: { rule: "hook", test: true } });

    receiver.answer({ status: 500 });
    const refused = await cli("test", "hook");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/not accepted: webhook answered HTTP 500/);
    expect((await cli("test", "nope")).code).toBe(64);
  }, 120_000);
});

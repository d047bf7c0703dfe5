/**
 * Rules and alerts keep their history (`regwatch alerts` as a subprocess): a rule is edited,
 * paused, resumed and removed with every change an event and its alerts kept; a removed rule's
 * name may be used again; two acks keep both notes; `alerts show` prints the alert, its change's
 * values and its events; a snooze date in the past is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverAlerts } from "../../src/alerts/deliver.ts";
import { silentLogger } from "../../src/logger.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { alertConfig, type Receiver, SECRET, startReceiver, storeRun, storeValues } from "./harness.ts";

describe("alert history", () => {
  let t: TestDatabase;
  let receiver: Receiver;
  // The receiver listens on 127.0.0.1: private targets are allowed explicitly.
  const env = () => ({
    DATABASE_URL: t.url,
    REGWATCH_WEBHOOK_SECRET: SECRET,
    REGWATCH_ALERT_ALLOW_PRIVATE_TARGETS: "true",
  });
  const cli = (...args: string[]) => runCli(["alerts", ...args], env());
  const raise = () =>
    deliverAlerts(
      { sql: t.db.sql, config: alertConfig(), log: silentLogger, random: () => 0.5 },
      { raiseOnly: true },
    );
  const ruleEvents = (name: string) => t.db.sql<{ action: string; by: string; note: string | null }[]>`
    select e.action, e.by, e.note from regwatch.alert_events e
    join regwatch.alert_rules r on r.id = e.rule_id
    where r.name = ${name} and e.alert_id is null order by e.id`;

  beforeAll(async () => {
    t = await createTestDatabase();
    receiver = await startReceiver();
    await t.db.sql`insert into regwatch.desired_lists (list_name) values ('suppliers'), ('clients')`;
    await storeRun(t.db.sql, "sync", [
      { taxId: "60000001", date: "2026-11-01", headings: ["seat", "status"], lists: ["suppliers"] },
    ]);
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.drop();
  });

  it("edits, pauses, resumes and removes a rule, keeping its alerts and every change in its history", async () => {
    const add = ["rule", "add", "ops", "--channel", "webhook", "--target", receiver.url, "--by", "anna"];
    expect((await cli(...add, "--list", "suppliers")).code).toBe(0);

    // Edit validates as add does: unknown lists and unseen headings are refused with 64.
    const unknown = await cli("rule", "edit", "ops", "--list", "nosuch", "--heading", "sesat");
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toMatch(/--list "nosuch": no such list/);
    expect(unknown.stderr).toMatch(/--heading "sesat": no stored change has named this heading/);
    expect((await cli("rule", "edit", "ops", "--channel", "pigeon")).code).toBe(64);
    expect((await cli("rule", "edit", "ops")).stderr).toMatch(/nothing to change/);
    expect((await cli("rule", "edit", "nope", "--digest")).code).toBe(64);
    const edited = await cli(
      "rule",
      "edit",
      "ops",
      "--list",
      "clients",
      "--heading",
      "seat",
      "--digest",
      "--by",
      "bela",
      "--note",
      "clients too",
    );
    expect(edited.code).toBe(0);
    expect(edited.stdout).toMatch(
      /rule ops changed: webhook to .*; lists clients; headings seat; digest per run/,
    );
    const newHeading = await cli("rule", "edit", "ops", "--heading", "founded_at", "--new-heading");
    expect(newHeading.code).toBe(0);
    expect((await cli("rule", "edit", "ops", "--all-headings", "--all-lists", "--no-digest")).code).toBe(0);

    expect((await cli("rule", "pause", "ops", "--by", "anna", "--note", "holiday")).code).toBe(0);
    let rules = JSON.parse((await cli("rule", "list", "--json")).stdout);
    expect(rules).toEqual([
      expect.objectContaining({ name: "ops", enabled: false, digest: false, lists: [] }),
    ]);
    // A paused rule raises nothing.
    await storeRun(t.db.sql, "sync", [
      { taxId: "60000002", date: "2026-11-02", headings: ["seat"], lists: ["suppliers"] },
    ]);
    expect(await raise()).toMatchObject({ raised: 0 });
    expect((await cli("rule", "resume", "ops", "--by", "anna")).code).toBe(0);
    await storeRun(t.db.sql, "sync", [
      { taxId: "60000003", date: "2026-11-03", headings: ["seat"], lists: ["suppliers"] },
    ]);
    expect(await raise()).toMatchObject({ raised: 1 });
    const [alert] = await t.db.sql<{ id: number }[]>`select id::int from regwatch.alerts`;
    expect((await cli("ack", String(alert!.id), "--by", "anna", "--note", "looking")).code).toBe(0);

    const removed = await cli("rule", "remove", "ops", "--by", "bela", "--note", "team disbanded");
    expect(removed.code).toBe(0);
    expect(removed.stdout).toMatch(/1 message\(s\) not sent yet will not be sent/);
    expect(JSON.parse((await cli("rule", "list", "--json")).stdout)).toEqual([]);
    rules = JSON.parse((await cli("rule", "list", "--removed", "--json")).stdout);
    expect(rules).toEqual([expect.objectContaining({ name: "ops", enabled: false })]);
    expect(rules[0].removedAt).not.toBeNull();
    // The alert, its message and its history stay.
    const listed = JSON.parse((await cli("list", "--json")).stdout);
    expect(listed.alerts).toEqual([
      expect.objectContaining({ id: alert!.id, rule: "ops", statusNote: "looking" }),
    ]);
    const [message] = await t.db.sql`select status, last_error from regwatch.alert_deliveries`;
    expect(message).toMatchObject({ status: "dead", last_error: "not sent: rule ops was removed by bela" });
    expect((await cli("rule", "pause", "ops")).code).toBe(64);

    // The name may be used again; the old rule's history stays its own.
    expect((await cli(...add)).code).toBe(0);
    const history = await ruleEvents("ops");
    expect(history).toEqual([
      { action: "rule added", by: "anna", note: null },
      { action: "rule edited", by: "bela", note: "clients too" },
      expect.objectContaining({ action: "rule edited" }),
      expect.objectContaining({ action: "rule edited" }),
      { action: "rule paused", by: "anna", note: "holiday" },
      { action: "rule resumed", by: "anna", note: null },
      { action: "rule removed", by: "bela", note: "team disbanded" },
      { action: "rule added", by: "anna", note: null },
    ]);
    const [edit] = await t.db.sql`
      select details from regwatch.alert_events where action = 'rule edited' and note = 'clients too'`;
    expect(edit!.details).toMatchObject({
      before: { lists: ["suppliers"], headings: [], digest: false },
      after: { lists: ["clients"], headings: ["seat"], digest: true },
    });
    const printed = await cli("rule", "history", "ops");
    expect(printed.code).toBe(0);
    expect(printed.stdout).toMatch(/rule paused by anna: holiday\n/);
    expect(printed.stdout).toMatch(/rule removed by bela: team disbanded\n/);
    expect((await cli("rule", "history", "never")).code).toBe(64);
    const show = await cli("show", String(alert!.id));
    expect(show.stdout).toMatch(/rule {6}ops \(removed /);
  }, 180_000);

  it("keeps both notes of two acks, shows the alert with its values and events, refuses a past snooze", async () => {
    await t.db.sql`delete from regwatch.alert_rules`;
    expect(
      (await cli("rule", "add", "show", "--channel", "notify", "--target", "regwatch_history")).code,
    ).toBe(0);
    const { changeIds } = await storeRun(t.db.sql, "sync", [
      { taxId: "60000004", date: "2026-11-04", headings: ["status"], lists: ["suppliers"] },
    ]);
    await storeValues(t.db.sql, changeIds[0]!, "status", 1, 2);
    expect(await raise()).toMatchObject({ raised: 1 });
    const [alert] = await t.db.sql<{ id: number }[]>`select id::int from regwatch.alerts`;
    const id = String(alert!.id);

    expect((await cli("ack", id, "--by", "anna", "--note", "called the supplier")).code).toBe(0);
    expect((await cli("ack", id, "--by", "bela", "--note", "supplier called back")).code).toBe(0);
    const past = await cli("snooze", id, "--until", "2020-01-01", "--by", "bela");
    expect(past.code).toBe(64);
    expect(past.stderr).toMatch(/--until 2020-01-01 is in the past/);
    expect((await cli("snooze", id, "--until", "2099-01-01", "--by", "cecil", "--note", "later")).code).toBe(
      0,
    );

    const show = await cli("show", id);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(`alert ${id}: snoozed to 2099-01-01`);
    expect(show.stdout).toContain("business  (name unknown) (60000004)");
    expect(show.stdout).toContain("  status: operating → suspended");
    expect(show.stdout).toMatch(
      /acknowledged by anna: called the supplier\n.*acknowledged by bela: supplier called back\n.*snoozed until 2099-01-01 by cecil: later\n/,
    );
    const json = JSON.parse((await cli("show", id, "--json")).stdout);
    expect(
      json.events.map((e: { action: string; by: string; note: string }) => [e.action, e.by, e.note]),
    ).toEqual([
      ["acknowledged", "anna", "called the supplier"],
      ["acknowledged", "bela", "supplier called back"],
      ["snoozed", "cecil", "later"],
    ]);
    expect(json.content.headings).toEqual([{ heading: "status", oldValue: 1, newValue: 2 }]);

    // A snooze that ended is reopened, and that is an event too.
    await t.db.sql`update regwatch.alerts set snoozed_until = '2020-01-01' where id = ${alert!.id}`;
    const reopened = JSON.parse((await cli("show", id, "--json")).stdout);
    expect(reopened.status).toBe("open");
    expect(reopened.events.at(-1)).toMatchObject({ action: "reopened", by: "regwatch" });
    expect((await cli("show", "999999")).code).toBe(1);
    expect((await cli("show", "x1")).code).toBe(64);
  }, 180_000);
});

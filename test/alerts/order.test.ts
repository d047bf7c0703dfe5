/**
 * Messages about one business reach a receiver oldest change first, whatever order the changes
 * were stored in, also when the older message has to be retried; a digest lists its alerts oldest
 * first; and a message about a value whose order within its day is unknown says so.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AlertConfig, deliverAlerts } from "../../src/alerts/deliver.ts";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { silentLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { alertConfig, type Receiver, startReceiver, startSmtp, storeRun, storeValues } from "./harness.ts";
import { decodedMail } from "./mail-text.ts";

const config = alertConfig;

describe("alert messages oldest change first", () => {
  let t: TestDatabase;
  let receiver: Receiver;
  let clock: number;
  const deliver = (extra: Partial<AlertConfig> = {}, ignoreBackoff = false) =>
    deliverAlerts(
      {
        sql: t.db.sql,
        config: config(extra),
        log: silentLogger,
        now: () => new Date(clock),
        random: () => 0.5,
      },
      { ignoreBackoff },
    );

  beforeAll(async () => {
    t = await createTestDatabase();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.drop();
  });
  beforeEach(async () => {
    // A minute ahead of the database's clock, so messages queued by now() are due at once.
    clock = Date.now() + 60_000;
    receiver.received.length = 0;
    receiver.answer({ status: 200 });
    await t.db.sql`delete from regwatch.alert_rules`;
  });

  const rule = (
    name: string,
    extra: { digest?: boolean; channel?: "webhook" | "email"; target?: string } = {},
  ) =>
    insertAlertRule(t.db.sql, {
      name,
      lists: [],
      headings: [],
      channel: extra.channel ?? "webhook",
      target: extra.target ?? receiver.url,
      digest: extra.digest ?? false,
    });
  const sent = () => receiver.received.map((r) => `${r.body.data.tax_id} ${r.body.data.change_date}`);

  it("sends the messages about a business in the order its changes happened, not the order they were stored", async () => {
    await rule("each");
    const { changeIds } = await storeRun(t.db.sql, "sync", [
      { taxId: "40000001", date: "2026-11-22", headings: ["seat"], lists: ["a"] },
      { taxId: "40000001", date: "2026-11-20", headings: ["seat"], lists: ["a"] },
      { taxId: "40000001", date: "2026-11-23", headings: ["name"], lists: ["a"] },
      { taxId: "40000001", date: "2026-11-23", headings: ["name"], lists: ["a"] },
      { taxId: "40000001", date: "2026-11-21", headings: ["seat"], lists: ["a"] },
    ]);
    // Two changes of one day: the values chain the second stored before the first (B→C after A→B).
    await storeValues(t.db.sql, changeIds[2]!, "name", "B", "C");
    await storeValues(t.db.sql, changeIds[3]!, "name", "A", "B");
    await t.db.sql`update regwatch.change_values set day_order = 2 where change_id = ${changeIds[2]!}`;
    await t.db.sql`update regwatch.change_values set day_order = 1 where change_id = ${changeIds[3]!}`;
    expect(await deliver()).toMatchObject({ raised: 5, sent: 5 });
    expect(sent()).toEqual([
      "40000001 2026-11-20",
      "40000001 2026-11-21",
      "40000001 2026-11-22",
      "40000001 2026-11-23",
      "40000001 2026-11-23",
    ]);
    const names = receiver.received
      .slice(3)
      .map((r) => (r.body.data.headings as { new_value: string }[])[0]!.new_value);
    expect(names).toEqual(["B", "C"]);
  });

  it("holds a newer message about a business while an older one to the same receiver waits for its retry", async () => {
    await rule("each");
    await storeRun(t.db.sql, "sync", [
      { taxId: "40000002", date: "2026-11-20", headings: ["seat"], lists: ["a"] },
      { taxId: "40000003", date: "2026-11-21", headings: ["seat"], lists: ["a"] },
      { taxId: "40000002", date: "2026-11-22", headings: ["seat"], lists: ["a"] },
    ]);
    receiver.answer({ status: 503 }, { status: 200 });
    // One at a time, so the receiver's answers go to the messages in order: the first fails, the
    // other business's message goes all the same, the newer one about the first business waits.
    const one = { alertTargetConcurrency: 1 };
    expect(await deliver(one)).toMatchObject({ raised: 3, attempted: 2, retrying: 1, sent: 1, deferred: 1 });
    // The failed message is not due yet: the newer one still waits.
    expect(await deliver(one)).toMatchObject({ attempted: 0, deferred: 1 });
    clock += 3600_000;
    expect(await deliver(one)).toMatchObject({ attempted: 2, sent: 2, deferred: 0 });
    expect(sent()).toEqual([
      "40000002 2026-11-20",
      "40000003 2026-11-21",
      "40000002 2026-11-20",
      "40000002 2026-11-22",
    ]);
  });

  it("a later run's message about an older change goes before a pending one about a newer change", async () => {
    await rule("each");
    await storeRun(t.db.sql, "sync", [
      { taxId: "40000004", date: "2026-11-22", headings: ["seat"], lists: ["a"] },
    ]);
    await storeRun(t.db.sql, "sync", [
      { taxId: "40000004", date: "2026-11-19", headings: ["seat"], lists: ["a"] },
    ]);
    // Raised, not sent (the receiver was down for both runs), then sent together.
    await deliverAlerts({ sql: t.db.sql, config: config(), log: silentLogger }, { raiseOnly: true });
    expect(await deliver({}, true)).toMatchObject({ sent: 2 });
    expect(sent()).toEqual(["40000004 2026-11-19", "40000004 2026-11-22"]);
  });

  it("lists a digest's alerts oldest first, and e-mails go oldest first too", async () => {
    const smtp = await startSmtp();
    try {
      await rule("daily", { digest: true });
      await rule("mail", { channel: "email", target: "ops@example.com" });
      await storeRun(t.db.sql, "sync", [
        { taxId: "40000005", date: "2026-11-22", headings: ["seat"], lists: ["a"] },
        { taxId: "40000006", date: "2026-11-20", headings: ["seat"], lists: ["a"] },
        { taxId: "40000005", date: "2026-11-21", headings: ["seat"], lists: ["a"] },
      ]);
      expect(await deliver({ smtpUrl: smtp.url, mailFrom: "regwatch@example.com" })).toMatchObject({
        raised: 6,
        sent: 4,
      });
      const [digest] = receiver.received;
      const dates = (digest!.body.data.alerts as { change_date: string }[]).map((a) => a.change_date);
      expect(dates).toEqual(["2026-11-20", "2026-11-21", "2026-11-22"]);
      // E-mails show days in REGWATCH_LOCALE's words (English by default).
      const mailed = smtp.mails.map((m) => /change of (\d{1,2} \w{3} \d{4})/.exec(m.raw)?.[1]);
      expect(mailed).toEqual(["20 Nov 2026", "21 Nov 2026", "22 Nov 2026"]);
    } finally {
      await smtp.close();
    }
  });

  it("says so when a value's order within its day is not known, instead of presenting it as current", async () => {
    const smtp = await startSmtp();
    try {
      await rule("hook");
      await rule("mail", { channel: "email", target: "ops@example.com" });
      const { changeIds } = await storeRun(t.db.sql, "sync", [
        { taxId: "40000007", date: "2026-11-20", headings: ["seat", "name"], lists: ["a"] },
      ]);
      await storeValues(t.db.sql, changeIds[0]!, "seat", "Budapest", "Szeged");
      await storeValues(t.db.sql, changeIds[0]!, "name", "Régi Kft.", "Új Kft.");
      await t.db.sql`update regwatch.change_values set order_ambiguous = true
                     where change_id = ${changeIds[0]!} and heading = 'seat'`;
      expect(await deliver({ smtpUrl: smtp.url, mailFrom: "regwatch@example.com" })).toMatchObject({
        sent: 2,
      });
      const headings = receiver.received[0]!.body.data.headings as Record<string, unknown>[];
      expect(headings).toEqual([
        {
          heading: "seat",
          old_value: "Budapest",
          new_value: "Szeged",
          order_ambiguous: true,
          note: "several values of seat on 2026-11-20 in no known order: the new value may not be the current one",
        },
        { heading: "name", old_value: "Régi Kft.", new_value: "Új Kft." },
      ]);
      const text = decodedMail(smtp.mails[0]!.raw);
      expect(text).toContain(
        "seat: Budapest → Szeged (several values of seat on 20 Nov 2026 in no known order: the new value may not be the current one)",
      );
    } finally {
      await smtp.close();
    }
  });
});

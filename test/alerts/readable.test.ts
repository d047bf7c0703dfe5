/**
 * Alert messages read as a person reads them, through the real channels: an e-mail received by
 * an SMTP server and a webhook body received (signature verified) by a receiver show bank accounts
 * as account numbers, status as words and representatives as names; the business's name where a
 * source knows it, else "(name unknown)" once with how to learn it; a webhook body keeps its
 * structured values and adds a text line a chat tool shows; changes oldest first.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deliverAlerts } from "../../src/alerts/deliver.ts";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { silentLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { alertConfig, type Receiver, startReceiver, startSmtp, storeRun, storeValues } from "./harness.ts";
import { decodedMail } from "./mail-text.ts";

describe("readable alert messages", () => {
  let t: TestDatabase;
  let receiver: Receiver;

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
    receiver.answer({ status: 200 });
    await t.db.sql`delete from regwatch.alert_rules`;
  });

  const deliver = (extra = {}) =>
    deliverAlerts(
      {
        sql: t.db.sql,
        config: alertConfig(extra),
        log: silentLogger,
        now: () => new Date(Date.now() + 60_000),
        random: () => 0.5,
      },
      { ignoreBackoff: true },
    );

  /** One business with a known name, one with none; three changes, stored newest first. */
  async function storeChanges(): Promise<void> {
    const { changeIds } = await storeRun(t.db.sql, "sync", [
      { taxId: "51000001", date: "2026-11-21", headings: ["representatives"], lists: ["suppliers"] },
      { taxId: "51000001", date: "2026-11-20", headings: ["status"], lists: ["suppliers"] },
      { taxId: "52000002", date: "2026-11-19", headings: ["bank_accounts"], lists: ["suppliers"] },
    ]);
    await storeValues(
      t.db.sql,
      changeIds[0]!,
      "representatives",
      [{ name: "Kiss Anna" }],
      [{ name: "Kiss Anna" }, { name: "Nagy Béla" }],
    );
    await storeValues(t.db.sql, changeIds[1]!, "status", 1, 2);
    await storeValues(
      t.db.sql,
      changeIds[2]!,
      "bank_accounts",
      [{ bank_account: "11111111-22222222-33333333" }],
      [{ bank_account: "11111111-22222222-33333333" }, { bank_account: "44444444-55555555-66666666" }],
    );
    // Only the search knows the first business's name (no profile yet).
    await t.db.sql`
      insert into regwatch.businesses (tax_id, full_name, record)
      values ('51000001', 'Minta Kereskedelmi Kft.', '{}')
      on conflict (tax_id) do update set full_name = excluded.full_name`;
  }

  it("e-mails show accounts, status in words and representatives by name, oldest change first", async () => {
    const smtp = await startSmtp();
    try {
      await insertAlertRule(t.db.sql, {
        name: "mail",
        lists: [],
        headings: [],
        channel: "email",
        target: "ops@example.com",
        digest: true,
      });
      await storeChanges();
      expect(await deliver({ smtpUrl: smtp.url, mailFrom: "regwatch@example.com" })).toMatchObject({
        raised: 3,
        sent: 1,
      });
      expect(smtp.mails).toHaveLength(1);
      const mail = decodedMail(smtp.mails[0]!.raw);
      expect(mail).toContain(
        "Bank accounts: 11111111-22222222-33333333 → 11111111-22222222-33333333, 44444444-55555555-66666666",
      );
      expect(mail).toContain("Status: operating → suspended");
      expect(mail).toContain("Representatives: Kiss Anna → Kiss Anna, Nagy Béla");
      expect(mail).toContain("Minta Kereskedelmi Kft. (51000001)");
      expect(mail).toContain("(name unknown) (52000002)");
      expect(mail).not.toMatch(/bank_account"|\{"name"|status: 1/);
      // The hint how to learn a name comes once in the text part (and once in the HTML part).
      const text = mail.slice(0, mail.indexOf("<html"));
      expect(text.match(/regwatch lookup/g)).toHaveLength(1);
      // Oldest change first.
      const order = ["52000002", "Status: operating", "Representatives:"].map((s) => text.indexOf(s));
      expect(order.every((at) => at >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
    } finally {
      await smtp.close();
    }
  });

  it("webhook bodies keep their values and add a text line a chat tool shows", async () => {
    await insertAlertRule(t.db.sql, {
      name: "hook",
      lists: [],
      headings: [],
      channel: "webhook",
      target: receiver.url,
      digest: false,
    });
    await storeChanges();
    expect(await deliver()).toMatchObject({ raised: 3, sent: 3 });
    expect(receiver.received).toHaveLength(3);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    const bodies = receiver.received.map(
      (r) => r.body as unknown as { text: string; data: Record<string, unknown> },
    );
    expect(bodies.map((b) => b.data.change_date)).toEqual(["2026-11-19", "2026-11-20", "2026-11-21"]);
    expect(bodies.map((b) => b.text)).toEqual([
      "regwatch (rule hook): (name unknown) (52000002) on 19 Nov 2026: Bank accounts: 11111111-22222222-33333333 → 11111111-22222222-33333333, 44444444-55555555-66666666\n" +
        "(name unknown): no search record or change has named the business yet; `regwatch lookup` finds it by registration number, name or bank account and stores the name for the next messages",
      "regwatch (rule hook): Minta Kereskedelmi Kft. (51000001) on 20 Nov 2026: Status: operating → suspended",
      "regwatch (rule hook): Minta Kereskedelmi Kft. (51000001) on 21 Nov 2026: Representatives: Kiss Anna → Kiss Anna, Nagy Béla",
    ]);
    // The structured fields stay as they were: values as the registry gave them.
    expect(bodies[1]!.data).toMatchObject({
      tax_id: "51000001",
      name: "Minta Kereskedelmi Kft.",
      headings: [{ heading: "status", old_value: 1, new_value: 2 }],
    });
    expect(bodies[0]!.data).toMatchObject({ name: null });
  });
});

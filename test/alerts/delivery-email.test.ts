/**
 * Partial e-mail acceptance against a real SMTP server (smtp-server) that refuses one recipient
 * with 450 for a while: each recipient's outcome is recorded, the retry goes to the refused one
 * only, and it carries the e-mail frozen before the first attempt.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AlertConfig, deliverAlerts } from "../../src/alerts/deliver.ts";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { silentLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { alertConfig, storeRun } from "./harness.ts";

describe("e-mail recipients", () => {
  let t: TestDatabase;
  const clock = Date.now() + 60_000;
  const now = () => new Date(clock);
  const closers: Array<() => Promise<void>> = [];
  const deliver = (extra: Partial<AlertConfig> = {}, ignoreBackoff = false) =>
    deliverAlerts(
      { sql: t.db.sql, config: alertConfig(extra), log: silentLogger, now, random: () => 0.5 },
      { ignoreBackoff },
    );
  const rule = (target: string, channel: "email") =>
    insertAlertRule(t.db.sql, { name: "mail", channel, target, lists: [], headings: [], digest: false });
  const changes = (n: number) =>
    storeRun(
      t.db.sql,
      "sync",
      Array.from({ length: n }, (_, i) => ({
        taxId: String(51_000_000 + i),
        date: "2026-11-20",
        headings: ["seat"],
        lists: ["a"],
      })),
    );

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await t?.drop();
  });

  it("an e-mail accepted for one recipient and refused for another is retried for the refused one only", async () => {
    let refuse = true;
    const mails: { to: string[]; subject: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (address.address === "finance@example.com" && refuse) {
          const error = Object.assign(new Error("mailbox busy, try later"), { responseCode: 450 });
          return callback(error);
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          const subject = /^Subject: (.*)$/m.exec(raw)?.[1] ?? "";
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), subject });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => smtp.close(() => resolve())));
    const { port } = smtp.server.address() as AddressInfo;
    const mailConfig = { smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: "regwatch@example.com" };
    await rule("ops@example.com, finance@example.com", "email");
    await changes(1);
    expect(await deliver(mailConfig)).toMatchObject({ retrying: 1, sent: 0 });
    const [first] = await t.db.sql<{ status: string; recipients: Record<string, string> }[]>`
      select status, recipients from regwatch.alert_deliveries`;
    expect(first!.status).toBe("pending");
    expect(first!.recipients["ops@example.com"]).toBe("sent");
    expect(first!.recipients["finance@example.com"]).toMatch(/^retry: 450/);
    // The business's name becomes known between the attempts: the retry still sends the frozen e-mail.
    const [latest] = await t.db.sql<{ taxId: string }[]>`
      select tax_id as "taxId" from regwatch.changes order by id desc limit 1`;
    await t.db
      .sql`insert into regwatch.business_profiles (tax_id, name) values (${latest!.taxId}, 'Later Name Kft.')`;
    refuse = false;
    expect(await deliver(mailConfig, true)).toMatchObject({ sent: 1 });
    expect(mails.map((m) => m.to)).toEqual([["ops@example.com"], ["finance@example.com"]]);
    expect(mails[1]!.subject).toBe(mails[0]!.subject);
    expect(mails[1]!.subject).not.toContain("Later Name");
  });
});

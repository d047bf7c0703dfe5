/**
 * The outbox against a real Postgres, a real webhook receiver (signatures checked with the
 * standardwebhooks library) and a real SMTP server; backoff on a controllable clock.
 */
import postgres from "postgres";
import { Registry } from "prom-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AlertConfig, deliverAlerts } from "../../src/alerts/deliver.ts";
import { startAlertTicker } from "../../src/alerts/hooks.ts";
import { registerAlertMetrics } from "../../src/alerts/metrics.ts";
import { listAlerts } from "../../src/alerts/sql/lifecycle.ts";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { formatStatus, readFullStatus } from "../../src/commands/status.ts";
import { silentLogger } from "../../src/logger.ts";
import { registerSecrets } from "../../src/secrets.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { waitUntil } from "../helpers/wait.ts";
import {
  alertConfig,
  type Receiver,
  SECRET,
  startReceiver,
  startSmtp,
  storeRun,
  storeValues,
} from "./harness.ts";

/** The backoff base of alertConfig. */
const BASE_MS = 1000;
const config = alertConfig;

describe("alert delivery", () => {
  let t: TestDatabase;
  let receiver: Receiver;
  let clock: number;
  const now = () => new Date(clock);
  const deliver = (extra: Partial<AlertConfig> = {}, ignoreBackoff = false) =>
    deliverAlerts(
      { sql: t.db.sql, config: config(extra), log: silentLogger, now, random: () => 0.5 },
      { ignoreBackoff },
    );

  beforeAll(async () => {
    registerSecrets([SECRET]);
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

  async function rule(
    name: string,
    extra: {
      channel?: "webhook" | "email" | "notify";
      target?: string;
      digest?: boolean;
      lists?: string[];
      headings?: string[];
    } = {},
  ) {
    await insertAlertRule(t.db.sql, {
      name,
      channel: extra.channel ?? "webhook",
      target: extra.target ?? receiver.url,
      lists: extra.lists ?? [],
      headings: extra.headings ?? [],
      digest: extra.digest ?? false,
    });
  }

  async function deliveries() {
    return t.db.sql<
      {
        status: string;
        attempts: number;
        message_id: string;
        last_status: number | null;
        last_error: string | null;
        next_attempt_at: Date;
      }[]
    >`
      select status, attempts, message_id, last_status, last_error, next_attempt_at from regwatch.alert_deliveries order by id`;
  }

  it("sends one signed message per alert, with old and new values per heading", async () => {
    await rule("all");
    const { changeIds } = await storeRun(t.db.sql, "sync", [
      {
        taxId: "10000001",
        date: "2026-11-20",
        headings: ["bank_accounts", "seat"],
        lists: ["suppliers", "customers"],
      },
    ]);
    await storeValues(t.db.sql, changeIds[0]!, "bank_accounts", ["111-222"], ["111-222", "333-444"]);
    await t.db.sql`insert into regwatch.business_profiles (tax_id, name) values ('10000001', 'Minta Kft.')`;
    const report = await deliver();
    expect(report).toMatchObject({ raised: 1, sent: 1, dead: 0 });
    expect(receiver.received).toHaveLength(1);
    const [msg] = receiver.received;
    expect(msg!.verified).toBe(true);
    expect(msg!.body.type).toBe("business.changed");
    expect(msg!.body.data).toMatchObject({
      rule: "all",
      tax_id: "10000001",
      name: "Minta Kft.",
      change_date: "2026-11-20",
      lists: ["customers", "suppliers"],
      headings: [
        { heading: "bank_accounts", old_value: ["111-222"], new_value: ["111-222", "333-444"] },
        { heading: "seat" },
      ],
    });
    expect(typeof msg!.body.data.alert_id).toBe("number");
    // Raised once: a second pass finds nothing new to raise or send.
    expect(await deliver()).toMatchObject({ raised: 0, attempted: 0 });
  });

  it("retries 500, 500, then delivers on the third attempt with one id, honouring the backoff", async () => {
    await rule("flaky");
    await storeRun(t.db.sql, "sync", [
      { taxId: "10000002", date: "2026-11-20", headings: ["name"], lists: ["a"] },
    ]);
    receiver.answer({ status: 500, body: "down" }, { status: 500 }, { status: 200 });
    await deliver();
    let [d] = await deliveries();
    expect(d).toMatchObject({ status: "pending", attempts: 1, last_status: 500 });
    // Equal jitter with random 0.5: three quarters of the base, then of twice the base.
    expect(d!.next_attempt_at.getTime()).toBe(clock + 0.75 * BASE_MS);
    expect(await deliver()).toMatchObject({ attempted: 0 });
    clock += 0.75 * BASE_MS;
    await deliver();
    [d] = await deliveries();
    expect(d).toMatchObject({ status: "pending", attempts: 2 });
    expect(d!.next_attempt_at.getTime()).toBe(clock + 1.5 * BASE_MS);
    clock += 1.5 * BASE_MS;
    await deliver();
    [d] = await deliveries();
    expect(d).toMatchObject({ status: "sent", attempts: 3, last_status: 200, last_error: null });
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((r) => r.id))).toEqual(new Set([d!.message_id]));
    expect(receiver.received.every((r) => r.verified)).toBe(true);
    expect(new Set(receiver.received.map((r) => JSON.stringify(r.body))).size).toBe(1);
  });

  it("waits at least a receiver's Retry-After, up to the step cap, per message", async () => {
    await rule("busy");
    await storeRun(t.db.sql, "sync", [
      { taxId: "10000003", date: "2026-11-20", headings: ["name"], lists: ["a"] },
      { taxId: "10000103", date: "2026-11-20", headings: ["name"], lists: ["a"] },
    ]);
    const asked = (status: number, s: number) => ({ status, headers: { "retry-after": String(s) } });
    receiver.answer(asked(429, 120), asked(503, 86_400));
    // One failing message does not hold back the other; 120 s as asked, a day cut to the 10-minute cap.
    expect(await deliver({ alertRetryCapMs: 600_000 })).toMatchObject({ attempted: 2, retrying: 2 });
    const waits = (await deliveries()).map((d) => d.next_attempt_at.getTime() - clock).sort((a, b) => a - b);
    expect(waits).toEqual([120_000, 600_000]);
    expect(receiver.received).toHaveLength(2);
  });

  it("gives up at once on 4xx and on redirects, and after the last attempt otherwise", async () => {
    await rule("gone");
    await storeRun(t.db.sql, "sync", [
      { taxId: "10000004", date: "2026-11-20", headings: ["name"], lists: ["a"] },
    ]);
    receiver.answer({ status: 410 });
    expect(await deliver()).toMatchObject({ dead: 1 });
    await t.db.sql`delete from regwatch.alert_rules`;

    await rule("moved");
    await storeRun(t.db.sql, "sync", [
      { taxId: "10000005", date: "2026-11-20", headings: ["name"], lists: ["a"] },
    ]);
    receiver.answer({ status: 301, headers: { location: "http://127.0.0.1:1/elsewhere" } });
    expect(await deliver()).toMatchObject({ dead: 1 });
    const [moved] = await deliveries();
    expect(moved!.last_error).toMatch(/redirect .* not followed/);
    await t.db.sql`delete from regwatch.alert_rules`;

    await rule("always-down");
    await storeRun(t.db.sql, "sync", [
      { taxId: "10000006", date: "2026-11-20", headings: ["name"], lists: ["a"] },
    ]);
    receiver.answer({ status: 503, body: `no such key ${SECRET}` });
    for (let i = 0; i < 3; i++) await deliver({ alertMaxAttempts: 3 }, true);
    const [dead] = await deliveries();
    expect(dead).toMatchObject({ status: "dead", attempts: 3 });
    expect(dead!.last_error).toMatch(/gave up after 3 attempts/);
    const stored = await t.db.sql`select d::text as row from regwatch.alert_deliveries d`;
    expect(stored.map((r) => r.row).join("")).not.toContain(SECRET.slice(6));

    // Dead messages are visible in status and in the metrics.
    const status = await readFullStatus(t.db.sql, { tz: "Europe/Budapest", searchMonthlyQuota: 2000 });
    expect(status.alertMessages).toMatchObject({ dead: 1, pending: 0 });
    expect(formatStatus(status)).toMatch(/Alert messages: 0 sent, 0 pending, 1 dead/);
    const registry = new Registry();
    registerAlertMetrics(registry, async () => t.db.sql);
    const metrics = await registry.metrics();
    expect(metrics).toContain('regwatch_alert_deliveries_total{channel="webhook",outcome="dead"} 1');
    expect(metrics).toContain('regwatch_alerts_raised_total{rule="always-down"} 1');
    expect(metrics).toContain("regwatch_alert_backlog 0");
  });

  it("the daemon's ticker delivers what is due without being asked", async () => {
    await rule("ticking");
    await storeRun(t.db.sql, "sync", [
      { taxId: "10000018", date: "2026-11-22", headings: ["seat"], lists: ["a"] },
    ]);
    const stop = startAlertTicker({ sql: t.db.sql, config: config(), log: silentLogger }, 50);
    try {
      await waitUntil(() => receiver.received.length > 0, { what: "a delivery from the ticker" });
    } finally {
      await stop();
    }
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries())[0]).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("a digest rule sends one message per run listing every alert", async () => {
    await rule("daily", { digest: true });
    await storeRun(t.db.sql, "sync", [
      { taxId: "10000007", date: "2026-11-20", headings: ["name"], lists: ["a"] },
      { taxId: "10000008", date: "2026-11-20", headings: ["seat"], lists: ["a", "b"] },
      { taxId: "10000009", date: "2026-11-21", headings: ["bank_accounts"], lists: ["b"] },
    ]);
    expect(await deliver()).toMatchObject({ raised: 3, sent: 1 });
    expect(receiver.received).toHaveLength(1);
    const [msg] = receiver.received;
    expect(msg!.verified).toBe(true);
    expect(msg!.body.type).toBe("digest");
    const alertIds = await t.db.sql<{ id: number }[]>`select id::int from regwatch.alerts order by id`;
    expect(msg!.body.data.alert_ids).toEqual(alertIds.map((a) => a.id));
    expect((msg!.body.data.alerts as { tax_id: string }[]).map((a) => a.tax_id)).toEqual([
      "10000007",
      "10000008",
      "10000009",
    ]);
  });

  it("filters by list and heading, and a backfill raises nothing unless asked for history", async () => {
    await rule("suppliers-banks", { lists: ["suppliers"], headings: ["bank_accounts"] });
    await storeRun(t.db.sql, "sync", [
      { taxId: "10000010", date: "2026-11-20", headings: ["bank_accounts"], lists: ["customers"] },
      { taxId: "10000011", date: "2026-11-20", headings: ["seat"], lists: ["suppliers"] },
      { taxId: "10000012", date: "2026-11-20", headings: ["seat", "bank_accounts"], lists: ["suppliers"] },
    ]);
    await storeRun(t.db.sql, "backfill", [
      { taxId: "10000013", date: "2026-10-01", headings: ["bank_accounts"], lists: ["suppliers"] },
    ]);
    expect(await deliver()).toMatchObject({ raised: 1 });
    await storeRun(
      t.db.sql,
      "backfill",
      [{ taxId: "10000014", date: "2026-10-01", headings: ["bank_accounts"], lists: ["suppliers"] }],
      { alertHistory: true },
    );
    expect(await deliver()).toMatchObject({ raised: 1 });
    const raised = await t.db
      .sql`select c.tax_id from regwatch.alerts a join regwatch.changes c on c.id = a.change_id order by c.tax_id`;
    expect(raised.map((r) => r.tax_id)).toEqual(["10000012", "10000014"]);
    // alerts list --list/--status: by list name or key, and by status.
    const bySupplier = await listAlerts(t.db.sql, { list: "suppliers", limit: 10 });
    expect(bySupplier.map((a) => a.taxId).sort()).toEqual(["10000012", "10000014"]);
    expect(await listAlerts(t.db.sql, { list: "key-suppliers", limit: 10 })).toHaveLength(2);
    expect(await listAlerts(t.db.sql, { list: "customers", limit: 10 })).toHaveLength(0);
    expect(await listAlerts(t.db.sql, { status: "resolved", limit: 10 })).toHaveLength(0);
    expect(bySupplier[0]).toMatchObject({ status: "open", rule: "suppliers-banks", delivery: "sent" });
  });

  it("an e-mail rule's message reaches the SMTP server with old and new values", async () => {
    const smtp = await startSmtp();
    try {
      await rule("mail", { channel: "email", target: "ops@example.com, finance@example.com" });
      const { changeIds } = await storeRun(t.db.sql, "sync", [
        { taxId: "10000015", date: "2026-11-22", headings: ["long_name"], lists: ["partners"] },
      ]);
      await storeValues(t.db.sql, changeIds[0]!, "long_name", "Régi Név Kft.", "Új Név Kft.");
      const report = await deliver({ smtpUrl: smtp.url, mailFrom: "regwatch@example.com" });
      expect(report).toMatchObject({ sent: 1, dead: 0 });
      expect(smtp.mails).toHaveLength(1);
      const [mail] = smtp.mails;
      expect(mail!.to.sort()).toEqual(["finance@example.com", "ops@example.com"]);
      expect(mail!.raw).toMatch(/text\/plain/);
      expect(mail!.raw).toMatch(/text\/html/);
      const decoded = decodeQuotedPrintable(mail!.raw);
      expect(decoded).toContain("Name: Régi Név Kft. → Új Név Kft.");
      const [d] = await deliveries();
      expect(d).toMatchObject({ status: "sent", last_status: 250 });
      expect(mail!.raw).toContain(d!.message_id);
    } finally {
      await smtp.close();
    }
  });

  it("a notify rule calls pg_notify with the alert id, tax id and headings", async () => {
    await rule("bus", { channel: "notify", target: "regwatch_alerts" });
    const listener = postgres(t.url, { max: 1, onnotice: () => {}, connection: { search_path: "regwatch" } });
    const heard: string[] = [];
    try {
      await listener.listen("regwatch_alerts", (payload) => heard.push(payload));
      await storeRun(t.db.sql, "sync", [
        { taxId: "10000016", date: "2026-11-22", headings: ["seat"], lists: ["a"] },
      ]);
      expect(await deliver()).toMatchObject({ sent: 1 });
      await waitUntil(() => heard.length > 0, { what: "the notification" });
      expect(heard).toHaveLength(1);
      const payload = JSON.parse(heard[0]!);
      expect(payload.type).toBe("business.changed");
      expect(payload.alerts).toEqual([
        { alert_id: expect.any(Number), tax_id: "10000016", headings: ["seat"] },
      ]);
    } finally {
      await listener.end();
    }
  });

  it("a message waits, attempts untouched, while the webhook secret is missing", async () => {
    await rule("unsigned");
    await storeRun(t.db.sql, "sync", [
      { taxId: "10000017", date: "2026-11-22", headings: ["seat"], lists: ["a"] },
    ]);
    expect(await deliver({ webhookSecret: undefined })).toMatchObject({ blocked: 1, attempted: 0 });
    const [d] = await deliveries();
    expect(d).toMatchObject({ status: "pending", attempts: 0 });
    expect(d!.last_error).toMatch(/REGWATCH_WEBHOOK_SECRET/);
    expect(receiver.received).toHaveLength(0);
  });
});

function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, "utf8"));
  }
  return Buffer.from(bytes).toString("utf8");
}

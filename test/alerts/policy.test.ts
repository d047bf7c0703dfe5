/** Pure parts of alerting: retry decisions, rule arguments, message content. */
import { describe, expect, it } from "vitest";
import { emailContent, webhookBody } from "../../src/alerts/message.ts";
import { notifyPayload } from "../../src/alerts/notify.ts";
import {
  classifyHttpStatus,
  classifySmtpCode,
  nextState,
  parseRetryAfter,
} from "../../src/alerts/retry-policy.ts";
import { validateRule } from "../../src/alerts/rule-input.ts";
import type { AlertContent } from "../../src/alerts/sql/outbox.ts";

const policy = { baseMs: 30_000, maxAttempts: 12, maxRetryAfterMs: 24 * 3600_000 };
const now = new Date("2026-11-23T08:00:00Z");

describe("retry policy", () => {
  it("doubles the backoff with jitter between half and all of each step", () => {
    const delays = (random: number) =>
      [1, 2, 3, 11].map(
        (n) =>
          nextState({ kind: "retry", error: "x" }, n, policy, now, () => random).nextAttemptAt.getTime() -
          now.getTime(),
      );
    expect(delays(0)).toEqual([15_000, 30_000, 60_000, 15_000 * 1024]);
    expect(delays(0.999999).map((d) => Math.round(d / 1000))).toEqual([30, 60, 120, 30 * 1024]);
    // Twelve attempts at the defaults spread over about a day (half to all of 34 hours).
    const total = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].reduce((sum, n) => sum + 30_000 * 2 ** (n - 1), 0);
    expect(total / 3600_000).toBeGreaterThan(16);
    expect(total / 3600_000).toBeLessThan(35);
  });

  it("never retries before Retry-After, gives up after the last attempt, and stops on dead answers", () => {
    const slow = nextState({ kind: "retry", error: "x", retryAfterMs: 600_000 }, 1, policy, now, () => 0);
    expect(slow.nextAttemptAt.getTime() - now.getTime()).toBe(600_000);
    expect(nextState({ kind: "retry", error: "x" }, 12, policy, now, () => 0)).toMatchObject({
      status: "dead",
      exhausted: true,
    });
    expect(nextState({ kind: "dead", error: "x" }, 1, policy, now, () => 0)).toMatchObject({
      status: "dead",
      exhausted: false,
    });
    expect(nextState({ kind: "sent" }, 5, policy, now, () => 0).status).toBe("sent");
  });

  it("classifies answers", () => {
    expect([200, 204, 301, 400, 404, 408, 410, 429, 500, 503].map(classifyHttpStatus)).toEqual([
      "sent",
      "sent",
      "dead",
      "dead",
      "dead",
      "retry",
      "dead",
      "retry",
      "retry",
      "retry",
    ]);
    expect([250, 421, 451, 550, undefined].map(classifySmtpCode)).toEqual([
      "sent",
      "retry",
      "retry",
      "dead",
      "retry",
    ]);
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(new Date(now.getTime() + 5000).toUTCString(), now)).toBe(5000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe("rule arguments", () => {
  const base = {
    name: "r",
    channel: "webhook",
    target: "https://example.com/hook",
    lists: [],
    headings: [],
    digest: false,
  };
  it("accepts each channel's target and names every problem", () => {
    expect(validateRule(base).rule).toMatchObject({ name: "r", channel: "webhook" });
    expect(
      validateRule({ ...base, channel: "email", target: "a@example.com, b@example.org" }).problems,
    ).toEqual([]);
    expect(validateRule({ ...base, channel: "notify", target: "regwatch_alerts" }).problems).toEqual([]);
    expect(validateRule({ ...base, target: "ftp://example.com" }).problems.map((p) => p.text)).toEqual([
      '--target "ftp://example.com" must be an http:// or https:// URL',
    ]);
    expect(validateRule({ ...base, name: " ", channel: "sms", lists: [""] }).problems).toHaveLength(3);
    expect(validateRule({ ...base, channel: "notify", target: "x".repeat(64) }).problems[0]?.text).toMatch(
      /1 to 63 bytes/,
    );
  });
});

describe("message content", () => {
  const alert: AlertContent = {
    alertId: 7,
    changeId: 70,
    taxId: "12345678",
    name: "Minta <Kft.>",
    changeDate: "2026-11-20",
    chapter: "registry",
    lists: ["suppliers"],
    headings: [{ heading: "bank_accounts", oldValue: ["1"], newValue: ["1", "2"] }, { heading: "seat" }],
  };
  const input = { kind: "alert" as const, rule: "banks", alerts: [alert], createdAt: now };

  it("webhook bodies carry the alert, the business and per heading old and new values", () => {
    expect(webhookBody(input)).toEqual({
      type: "business.changed",
      timestamp: now.toISOString(),
      text: "regwatch (rule banks): Minta <Kft.> (12345678) on 20 Nov 2026: Bank accounts: 1 → 1, 2; seat: changed (values not parsed yet)",
      data: {
        rule: "banks",
        alert_id: 7,
        tax_id: "12345678",
        name: "Minta <Kft.>",
        change_date: "2026-11-20",
        chapter: "registry",
        lists: ["suppliers"],
        headings: [
          { heading: "bank_accounts", old_value: ["1"], new_value: ["1", "2"] },
          { heading: "seat" },
        ],
      },
    });
    expect(webhookBody({ ...input, kind: "digest" })).toMatchObject({
      type: "digest",
      data: { alert_ids: [7] },
    });
    expect(webhookBody({ ...input, kind: "test", alerts: [] })).toMatchObject({
      type: "test",
      data: { test: true },
    });
  });

  it("e-mails read as a change feed and escape HTML; NOTIFY payloads stay under 8000 bytes", () => {
    const mail = emailContent(input);
    expect(mail.text).toContain("Bank accounts: 1 → 1, 2");
    expect(mail.text).toContain("seat: changed (values not parsed yet)");
    expect(mail.html).toContain("Minta &#60;Kft.&#62;");
    expect(emailContent({ ...input, kind: "test", alerts: [] }).subject).toMatch(/TEST/);
    // In REGWATCH_LOCALE=hu: Hungarian words and days; a heading without a word keeps its key.
    const hu = emailContent({ ...input, locale: "hu" });
    expect(hu.text).toContain("7. riasztás: Minta <Kft.> (12345678), a változás napja: 2026. 11. 20.");
    expect(hu.text).toContain("Bankszámlaszámok: 1 → 1, 2");
    expect(hu.text).toContain("seat: megváltozott (az értékek még nincsenek feldolgozva)");
    expect(hu.html).toContain('<td title="bank_accounts">Bankszámlaszámok</td>');
    expect(webhookBody({ ...input, kind: "digest", locale: "hu" }).text).toMatch(
      /^regwatch \(banks szabály\): 1 változás\n/,
    );
    const many = Array.from({ length: 500 }, (_, i) => ({ ...alert, alertId: i }));
    const payload = notifyPayload({ ...input, kind: "digest", alerts: many }, "msg_1");
    expect(Buffer.byteLength(payload)).toBeLessThan(8000);
    const parsed = JSON.parse(payload);
    expect(parsed.alerts.length + parsed.more).toBe(500);
  });
});

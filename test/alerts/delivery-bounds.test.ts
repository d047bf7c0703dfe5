/**
 * Bounded messages: the NOTIFY payload of a 16,000-alert digest is built in one pass (each alert
 * serialised once) and stays under pg_notify's limit; a digest over the size bound lists the
 * first changes and says how many more there are and where to read them, in the webhook body
 * (end to end, through a real receiver) and in the e-mail.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { deliverAlerts } from "../../src/alerts/deliver.ts";
import { boundDigest, boundEmailContent, DIGEST_MAX_CHANGES } from "../../src/alerts/digest-bound.ts";
import type { MessageInput } from "../../src/alerts/message.ts";
import { NOTIFY_MAX_BYTES, notifyPayload } from "../../src/alerts/notify.ts";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { silentLogger } from "../../src/logger.ts";
import { registerSecrets } from "../../src/secrets.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { alertConfig, type Receiver, SECRET, startReceiver, storeRun } from "./harness.ts";

function digestOf(count: number): MessageInput {
  return {
    kind: "digest",
    rule: "all",
    createdAt: new Date("2026-11-20T08:00:00Z"),
    alerts: Array.from({ length: count }, (_, i) => ({
      alertId: i + 1,
      changeId: i + 1,
      taxId: String(10_000_000 + i),
      name: null,
      changeDate: `2026-11-${String(10 + (i % 10)).padStart(2, "0")}`,
      chapter: "registry",
      lists: ["a"],
      headings: [{ heading: "seat" }, { heading: "bank_accounts" }],
    })),
  };
}

describe("bounded messages", () => {
  it("builds the NOTIFY payload of 16,000 alerts serialising each alert at most once, under the limit", () => {
    const input = digestOf(16_000);
    const stringify = vi.spyOn(JSON, "stringify");
    let payload: string;
    try {
      payload = notifyPayload(input, "msg_1");
    } finally {
      stringify.mockRestore();
    }
    // One call for the head and one per alert looked at, never one per alert dropped.
    expect(stringify.mock.calls.length).toBeLessThanOrEqual(16_001);
    expect(Buffer.byteLength(payload)).toBeLessThan(NOTIFY_MAX_BYTES);
    const parsed = JSON.parse(payload) as { id: string; type: string; alerts: unknown[]; more: number };
    expect(parsed).toMatchObject({ id: "msg_1", type: "digest", rule: "all" });
    expect(parsed.alerts.length).toBeGreaterThan(10);
    expect(parsed.alerts.length + parsed.more).toBe(16_000);
    // A small digest is whole and has no `more`.
    expect(JSON.parse(notifyPayload(digestOf(3), "msg_2"))).not.toHaveProperty("more");
  });

  it("an e-mail digest over the bound lists the first changes and names how many more and where", () => {
    const bound = boundDigest(digestOf(DIGEST_MAX_CHANGES + 37));
    expect(bound.input.alerts).toHaveLength(DIGEST_MAX_CHANGES);
    expect(bound.more).toBe(37);
    const content = boundEmailContent(
      { subject: "s", text: "body\n", html: "<html><body>x</body></html>" },
      bound,
    );
    expect(content.text).toContain(
      "…and 37 more change(s) not listed here: see `regwatch changes --since 2026-11-10`.",
    );
    expect(content.html).toContain("37 more change(s)");
    expect(boundDigest(digestOf(3)).more).toBe(0);
  });

  describe("end to end", () => {
    let t: TestDatabase;
    let receiver: Receiver;
    beforeAll(async () => {
      registerSecrets([SECRET]);
      t = await createTestDatabase();
      receiver = await startReceiver();
    });
    afterAll(async () => {
      await receiver?.close();
      await t?.drop();
    });

    it("a webhook digest of 230 changes lists 200 and says 30 more, with where to see them", async () => {
      await insertAlertRule(t.db.sql, {
        name: "daily",
        channel: "webhook",
        target: receiver.url,
        lists: [],
        headings: [],
        digest: true,
      });
      await storeRun(
        t.db.sql,
        "sync",
        Array.from({ length: 230 }, (_, i) => ({
          taxId: String(60_000_000 + i),
          date: "2026-11-21",
          headings: ["seat"],
          lists: ["a"],
        })),
      );
      const report = await deliverAlerts(
        { sql: t.db.sql, config: alertConfig(), log: silentLogger },
        { ignoreBackoff: true },
      );
      expect(report).toMatchObject({ raised: 230, sent: 1 });
      expect(receiver.received).toHaveLength(1);
      const data = receiver.received[0]!.body.data as { alerts: unknown[]; more: Record<string, unknown> };
      expect(receiver.received[0]!.verified).toBe(true);
      expect(data.alerts).toHaveLength(200);
      expect(data.more).toEqual({ count: 30, total: 230, see: "regwatch changes --since 2026-11-21" });
      // The line a chat tool shows says so too.
      const text = (receiver.received[0]!.body as { text?: string }).text ?? "";
      expect(text.split("\n").at(-1)).toBe(
        "…and 30 more change(s) not listed here: see `regwatch changes --since 2026-11-21`.",
      );
    });
  });
});

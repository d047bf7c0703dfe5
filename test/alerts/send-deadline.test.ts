/**
 * A message is sent once: an SMTP server (smtp-server) answers every step just inside nodemailer's
 * per-step timeout, so a transfer would go on past its delivery lease. The send is aborted at its
 * one overall deadline, inside the lease, and recorded as a failed attempt under the claim; a
 * second deliverer that looks once the first one's lease has ended finds nothing to send, and the
 * server never holds two transfers of the message at once.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AlertConfig, deliverAlerts } from "../../src/alerts/deliver.ts";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { silentLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { waitUntil } from "../helpers/wait.ts";
import { alertConfig, storeRun } from "./harness.ts";

/**
 * Each step's pause at the server: well under the 4 s per-step timeout (a loaded machine must not
 * make a step outlast it), five of them over the 12 s lease.
 */
const STEP_MS = 2800;

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t?.drop());

/** A server slow at every step; it counts transfers in flight (MAIL FROM to the end of the session). */
async function slowSmtp() {
  const inFlight = new Set<string>();
  let mostAtOnce = 0;
  let transfers = 0;
  let accepted = 0;
  let connections = 0;
  const pause = (then: () => void) => setTimeout(then, STEP_MS);
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onConnect: (_session, callback) => {
      connections++;
      pause(() => callback());
    },
    onMailFrom(_address, session, callback) {
      transfers++;
      inFlight.add(session.id);
      mostAtOnce = Math.max(mostAtOnce, inFlight.size);
      pause(() => callback());
    },
    onRcptTo: (_address, _session, callback) => pause(() => callback()),
    onData(stream, _session, callback) {
      stream.resume();
      stream.on("end", () =>
        pause(() => {
          accepted++;
          callback();
        }),
      );
    },
    onClose: (session) => inFlight.delete(session.id),
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    stats: () => ({ mostAtOnce, transfers, accepted }),
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("one overall deadline per send", () => {
  it("aborts an SMTP transfer that would outlast its lease, and no second deliverer sends it meanwhile", {
    timeout: 90_000,
  }, async () => {
    const smtp = await slowSmtp();
    try {
      const config: Partial<AlertConfig> = {
        smtpUrl: smtp.url,
        mailFrom: "regwatch@example.com",
        requestTimeoutMs: 4000,
        // One message per receiver slot: the lease is three request timeouts (12 s).
        alertTargetConcurrency: 32,
        alertRetryBaseMs: 600_000,
      };
      const deliver = () =>
        deliverAlerts({ sql: t.db.sql, config: alertConfig(config), log: silentLogger, random: () => 0.5 });
      await insertAlertRule(t.db.sql, {
        name: "mail",
        channel: "email",
        target: "ops@example.com, finance@example.com",
        lists: [],
        headings: [],
        digest: false,
      });
      await storeRun(t.db.sql, "sync", [
        { taxId: "52000001", date: "2026-11-20", headings: ["seat"], lists: ["a"] },
      ]);

      const first = deliver();
      // The first deliverer has claimed the message once its transfer has begun (before, the row
      // may be unclaimed: a claim made before the message texts were loaded is rolled back and made again).
      await waitUntil(() => smtp.connections() > 0, { what: "the first deliverer's transfer" });
      // Once the first deliverer's lease has ended (run out, or given back with its outcome), a
      // second deliverer looks.
      await waitUntil(
        async () => {
          const [row] = await t.db.sql<{ over: boolean }[]>`
            select lease_token is null or lease_until < now() as over from ${t.db.sql.t.alert_deliveries}`;
          return row?.over;
        },
        { what: "the first deliverer's lease over", everyMs: 50 },
      );
      const second = await deliver();
      const report = await first;

      expect(second.attempted).toBe(0);
      expect(smtp.stats()).toMatchObject({ mostAtOnce: 1, transfers: 1, accepted: 0 });
      expect(report).toMatchObject({ attempted: 1, retrying: 1, sent: 0 });
      const [row] = await t.db.sql<
        { status: string; attempts: number; last_error: string; lease_token: string | null }[]
      >`
        select status, attempts, last_error, lease_token from ${t.db.sql.t.alert_deliveries}`;
      expect(row).toMatchObject({ status: "pending", attempts: 1, lease_token: null });
      expect(row!.last_error).toMatch(/^SMTP transfer aborted: it did not end within its deadline/);
    } finally {
      await smtp.close();
    }
  });
});

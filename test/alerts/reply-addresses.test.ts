/**
 * A receiver's reply is stored without the addresses it may quote: a real SMTP server answers 250
 * naming its recipient, and neither the stored row nor anything a reader role may select shows it.
 */
import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverAlerts } from "../../src/alerts/deliver.ts";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { grantReader } from "../../src/db/grants.ts";
import { silentLogger } from "../../src/logger.ts";
import { redactAddresses } from "../../src/secrets.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { alertConfig, storeRun } from "./harness.ts";

const role = `regwatch_bi_${randomBytes(4).toString("hex")}`;

describe("addresses in receivers' replies", () => {
  let t: TestDatabase;
  let smtp: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    t = await createTestDatabase();
    await t.db.sql.unsafe(`create role "${role}" nologin`);
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onData(stream, session, callback) {
        stream.resume();
        const to = session.envelope.rcptTo.map((r) => `<${r.address}>`).join(", ");
        stream.on("end", () => callback(null, `Ok: queued as 4F2A for ${to}`));
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
    if (t) {
      await t.db.sql.unsafe(`drop owned by "${role}"`);
      await t.db.sql.unsafe(`drop role if exists "${role}"`);
      await t.drop();
    }
  });

  it("marks what looks like an address and keeps the rest", () => {
    expect(redactAddresses("250 2.0.0 Ok: queued for <cfo.private@example.com>, ops+x@mail.example.hu")).toBe(
      "250 2.0.0 Ok: queued for <[address]>, [address]",
    );
    expect(redactAddresses("200 ok")).toBe("200 ok");
  });

  it("stores the 250 reply of an e-mail without its recipients, and a reader sees none", async () => {
    await insertAlertRule(t.db.sql, {
      name: "cfo",
      channel: "email",
      target: "cfo.private@example.com",
      lists: [],
      headings: [],
      digest: false,
    });
    await storeRun(t.db.sql, "sync", [
      { taxId: "52000000", date: "2026-11-20", headings: ["seat"], lists: ["a"] },
    ]);
    const config = alertConfig({ smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: "regwatch@example.com" });
    const now = () => new Date(Date.now() + 60_000);
    const report = await deliverAlerts({ sql: t.db.sql, config, log: silentLogger, now, random: () => 0.5 });
    expect(report).toMatchObject({ sent: 1 });

    const [row] = await t.db.sql<
      { last_reply: string | null }[]
    >`select last_reply from regwatch.alert_deliveries`;
    expect(row?.last_reply).toMatch(/^250 Ok: queued as 4F2A for <\[address\]>$/);

    await grantReader(t.db.sql, role, "regwatch");
    const columns = await t.db.sql<{ column_name: string }[]>`
      select column_name from information_schema.column_privileges
      where grantee = ${role} and table_schema = 'regwatch' and table_name = 'alert_deliveries'
        and privilege_type = 'SELECT'`;
    expect(columns.map((c) => c.column_name)).toContain("last_reply");
    const reserved = await t.db.sql.reserve();
    try {
      await reserved`begin`;
      await reserved.unsafe(`set local role "${role}"`);
      const list = columns.map((c) => `"${c.column_name}"`).join(", ");
      const seen = await reserved.unsafe(`select ${list} from regwatch.alert_deliveries`);
      expect(seen).toHaveLength(1);
      expect(JSON.stringify(seen)).not.toMatch(/@example\.com/);
    } finally {
      await reserved`rollback`;
      reserved.release();
    }
  });
});

/**
 * A small world for the console's language tests: one business with a change of its status
 * (operating → ceased), its bank accounts and a heading no catalog knows, the alert a rule
 * raised for it, a finished sync run, and a recorded payment batch of HUF 1,234,567.00.
 */
import { deliverAlerts } from "../../src/alerts/deliver.ts";
import type { Database } from "../../src/db/connect.ts";
import { silentLogger } from "../../src/logger.ts";
import { recordPaymentBatch } from "../../src/payments/sql/payment-checks.ts";
import { finishRun, startRun } from "../../src/run/runs.ts";
import { alertConfig } from "../alerts/harness.ts";
import { addNotifyRule } from "./fixtures.ts";

export const TAX_ID = "12345676";
/** A heading the registry might add one day: no catalog has a word for it. */
export const NEW_HEADING = "capital_subscribed";

export async function seedLanguageWorld(db: Database): Promise<{ alertId: number; batchId: string }> {
  const { sql } = db;
  await addNotifyRule(sql);
  const runId = await startRun(sql, "sync", "cli", { options: { kind: "sync" } });
  await sql`insert into ${sql.t.watch_lists} (list_key, list_name) values ('key-main', 'suppliers')`;
  await sql`insert into ${sql.t.business_profiles} (tax_id, name) values (${TAX_ID}, 'Minta Kereskedelmi Kft.')`;
  const headings = ["status", "bank_accounts", NEW_HEADING];
  const [change] = await sql<{ id: number }[]>`
    insert into ${sql.t.changes} (tax_id, change_date, chapter, path, changed_headings, raw)
    values (${TAX_ID}, '2026-11-26', 'general', '/files/2026-11-26/companies/a.json', ${headings}, '{}')
    returning id::int`;
  await sql`insert into ${sql.t.change_sources} (change_id, list_key) values (${change!.id}, 'key-main')`;
  const values: [string, unknown, unknown][] = [
    ["status", 1, 0],
    ["bank_accounts", [], [{ bank_account: "11773016-11111018-00000000" }]],
    [NEW_HEADING, "1000000", "3000000"],
  ];
  for (const [heading, before, after] of values) {
    await sql`
      insert into ${sql.t.change_values} (change_id, heading, tax_id, change_date, old_value, new_value, path)
      select id, ${heading}, tax_id, change_date, ${sql.json(before as never)}, ${sql.json(after as never)}, path
      from ${sql.t.changes} where id = ${change!.id}`;
  }
  await finishRun(sql, runId, "ok", { options: { kind: "sync" }, changesWritten: 1234, dryRun: false });
  await deliverAlerts(
    { sql, config: alertConfig(), log: silentLogger, random: () => 0.5 },
    { raiseOnly: true },
  );
  const [alert] = await sql<{ id: number }[]>`select id::int from ${sql.t.alerts} order by id limit 1`;
  const batchId = await recordPaymentBatch(
    sql,
    {
      checkedBy: "vera",
      source: "web",
      fileName: "utalas.csv",
      encoding: "windows-1250",
      delimiter: ";",
      checkedOn: "2026-11-27",
      holdDays: 30,
    },
    async (recording) => {
      await recording.insert([
        {
          line: 2,
          taxId: TAX_ID,
          bankAccount: "11773016-11111018-00000000",
          verdict: "account_recently_changed",
          detail: null,
          nextStep: null,
          amount: "1234567.00",
          currency: "HUF",
          reference: "Számla 1",
          taxBase: TAX_ID,
          payeeFoundBy: null,
          name: "Minta Kereskedelmi Kft.",
          registryName: "Minta Kereskedelmi Kft.",
          amountRaw: "1.234.567,00",
          verifiedBy: null,
          verifiedOn: null,
        },
      ]);
      const totals = [{ currency: "HUF", amount: "1234567.00", rows: 1, held: "1234567.00", held_rows: 1 }];
      return { value: recording.id, end: { rowCount: 1, heldCount: 1, totals } };
    },
  );
  if (!alert) throw new Error("the rule raised no alert");
  return { alertId: alert.id, batchId };
}

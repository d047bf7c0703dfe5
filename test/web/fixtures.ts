/**
 * Alerts for the console's HTTP tests, stored the way a sync stores changes (test/alerts/harness)
 * and raised by the same scan the daemon runs.
 */
import { deliverAlerts } from "../../src/alerts/deliver.ts";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import type { Sql } from "../../src/db/connect.ts";
import { silentLogger } from "../../src/logger.ts";
import { alertConfig, type StoredChange, storeRun, storeValues } from "../alerts/harness.ts";

export async function addNotifyRule(sql: Sql, name = "everything"): Promise<void> {
  await insertAlertRule(sql, {
    name,
    lists: [],
    headings: [],
    channel: "notify",
    target: "regwatch_console_test",
    digest: false,
  });
}

/** Stores a run with these changes (and values), raises their alerts; returns alert ids by change, in order. */
export async function raiseAlerts(
  sql: Sql,
  changes: (StoredChange & { values?: Record<string, [unknown, unknown]> })[],
): Promise<number[]> {
  const { changeIds } = await storeRun(sql, "sync", changes);
  for (const [i, change] of changes.entries()) {
    for (const [heading, [oldValue, newValue]] of Object.entries(change.values ?? {})) {
      await storeValues(sql, changeIds[i]!, heading, oldValue, newValue);
    }
  }
  await deliverAlerts(
    { sql, config: alertConfig(), log: silentLogger, random: () => 0.5 },
    { raiseOnly: true },
  );
  const rows = await sql<{ id: number; changeId: number }[]>`
    select id::int, change_id::int as "changeId" from regwatch.alerts where change_id = any (${changeIds}::bigint[])`;
  return changeIds.map((c) => rows.find((r) => r.changeId === c)!.id);
}

export async function nameBusiness(sql: Sql, taxId: string, name: string): Promise<void> {
  await sql`insert into regwatch.business_profiles (tax_id, name) values (${taxId}, ${name})
            on conflict (tax_id) do update set name = excluded.name`;
}

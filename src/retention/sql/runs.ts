/** The record of retention passes (`retention_runs`): what each kind's pass did, never what it removed. */
import type { Sql } from "../../db/connect.ts";

export interface RetentionRunRow {
  kind: string;
  action: string;
  count: number;
  batches: number;
  policy: string;
  trigger: "cli" | "schedule";
}

export async function recordRetentionRun(sql: Sql, row: RetentionRunRow): Promise<void> {
  await sql`
    insert into ${sql.t.retention_runs} (kind, action, count, batches, policy, trigger)
    values (${row.kind}, ${row.action}, ${row.count}, ${row.batches}, ${row.policy}, ${row.trigger})`;
}

/** Whether the daemon's pass already ran on `today` (YYYY-MM-DD in `tz`). */
export async function scheduledPassRan(sql: Sql, today: string, tz: string): Promise<boolean> {
  const [row] = await sql<{ ran: boolean }[]>`
    select exists (select 1 from ${sql.t.retention_runs}
                   where trigger = 'schedule' and (ran_at at time zone ${tz})::date = ${today}::date) as ran`;
  return row?.ran ?? false;
}

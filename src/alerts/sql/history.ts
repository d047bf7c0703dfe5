/** One alert with everything known about it, for `regwatch alerts show ID`. */

import type { Sql } from "../../db/connect.ts";
import type { AlertContent } from "./outbox.ts";
import { alertContents } from "./outbox.ts";

export interface AlertEvent {
  id: number;
  at: Date;
  by: string;
  action: string;
  note: string | null;
  snoozedUntil: string | null;
  details: unknown;
}

export interface AlertDetail {
  id: number;
  rule: string;
  ruleRemovedAt: Date | null;
  status: string;
  snoozedUntil: string | null;
  raisedAt: Date;
  runId: number | null;
  content: AlertContent | undefined;
  events: AlertEvent[];
  messages: { messageId: string; kind: string; status: string; attempts: number; lastError: string | null }[];
}

export async function alertDetail(sql: Sql, id: number): Promise<AlertDetail | undefined> {
  const [alert] = await sql<Omit<AlertDetail, "content" | "events" | "messages">[]>`
    select a.id::int, r.name as rule, r.removed_at as "ruleRemovedAt", a.status,
           to_char(a.snoozed_until, 'YYYY-MM-DD') as "snoozedUntil", a.raised_at as "raisedAt",
           a.run_id::int as "runId"
    from ${sql.t.alerts} a join ${sql.t.alert_rules} r on r.id = a.rule_id
    where a.id = ${id}`;
  if (!alert) return undefined;
  const [[content], events, messages] = await Promise.all([
    alertContents(sql, [id]),
    sql<AlertEvent[]>`
      select id::int, at, by, action, note, to_char(snoozed_until, 'YYYY-MM-DD') as "snoozedUntil", details
      from ${sql.t.alert_events} where alert_id = ${id} order by id`,
    sql<AlertDetail["messages"]>`
      select message_id as "messageId", kind, status, attempts, last_error as "lastError"
      from ${sql.t.alert_deliveries} where ${id}::bigint = any (alert_ids) order by id`,
  ]);
  return { ...alert, content, events: [...events], messages: [...messages] };
}

/** The history of a rule: added, edited, paused, resumed, removed. */
export async function ruleEvents(sql: Sql, ruleName: string): Promise<(AlertEvent & { ruleId: number })[]> {
  return sql<(AlertEvent & { ruleId: number })[]>`
    select e.id::int, e.rule_id::int as "ruleId", e.at, e.by, e.action, e.note,
           to_char(e.snoozed_until, 'YYYY-MM-DD') as "snoozedUntil", e.details
    from ${sql.t.alert_events} e join ${sql.t.alert_rules} r on r.id = e.rule_id
    where r.name = ${ruleName} and e.alert_id is null
    order by e.id`;
}

/**
 * Alert rules: created, listed and removed by `regwatch alerts rule`. A rule's target is never a
 * secret (the webhook secret and the SMTP password stay in the environment).
 */
import type { Sql } from "./connect.ts";

export type AlertChannel = "webhook" | "email" | "notify";

export interface AlertRuleInput {
  name: string;
  lists: string[];
  headings: string[];
  channel: AlertChannel;
  target: string;
  digest: boolean;
}

export interface AlertRuleRow extends AlertRuleInput {
  id: number;
  enabled: boolean;
  createdAt: Date;
}

/** Inserts a rule; undefined when the name is taken. */
export async function insertAlertRule(sql: Sql, rule: AlertRuleInput): Promise<AlertRuleRow | undefined> {
  const [row] = await sql<AlertRuleRow[]>`
    insert into regwatch.alert_rules (name, lists, headings, channel, target, digest)
    values (${rule.name}, ${rule.lists}, ${rule.headings}, ${rule.channel}, ${rule.target}, ${rule.digest})
    on conflict (name) do nothing
    returning id::int, name, lists, headings, channel, target, digest, enabled, created_at as "createdAt"`;
  return row;
}

export async function listAlertRules(sql: Sql): Promise<AlertRuleRow[]> {
  return sql<AlertRuleRow[]>`
    select id::int, name, lists, headings, channel, target, digest, enabled, created_at as "createdAt"
    from regwatch.alert_rules order by name`;
}

export async function findAlertRule(sql: Sql, name: string): Promise<AlertRuleRow | undefined> {
  const [row] = await sql<AlertRuleRow[]>`
    select id::int, name, lists, headings, channel, target, digest, enabled, created_at as "createdAt"
    from regwatch.alert_rules where name = ${name}`;
  return row;
}

/** Removes a rule with its alerts and queued messages; false when there was none. */
export async function deleteAlertRule(sql: Sql, name: string): Promise<boolean> {
  const rows = await sql`delete from regwatch.alert_rules where name = ${name} returning id`;
  return rows.length > 0;
}

/**
 * Alert rules: added, listed, edited, paused, resumed and removed by `regwatch alerts rule`. A
 * rule is never deleted: a removed one is marked so (and disabled), keeping its alerts, their
 * messages and their history; its name may then be taken by a new rule. Every change to a rule
 * is written with an event row in the same statement. A rule's target is never a secret (the
 * webhook secret and the SMTP password stay in the environment).
 */
import type { Sql } from "../../db/connect.ts";

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
  removedAt: Date | null;
}

/** Who acts on a rule, and why. */
export interface RuleActor {
  by: string;
  note: string | null;
}

const COLUMNS = (sql: Sql) =>
  sql`id::int, name, lists, headings, channel, target, digest, enabled, created_at as "createdAt",
      removed_at as "removedAt"`;

function settings(rule: AlertRuleInput) {
  return {
    channel: rule.channel,
    target: rule.target,
    lists: rule.lists,
    headings: rule.headings,
    digest: rule.digest,
  };
}

/** Inserts a rule and its "rule added" event; undefined when a rule in use has the name. */
export async function insertAlertRule(
  sql: Sql,
  rule: AlertRuleInput,
  actor: RuleActor = { by: "regwatch", note: null },
): Promise<AlertRuleRow | undefined> {
  const [row] = await sql<AlertRuleRow[]>`
    with added as (
      insert into ${sql.t.alert_rules} (name, lists, headings, channel, target, digest)
      values (${rule.name}, ${rule.lists}, ${rule.headings}, ${rule.channel}, ${rule.target}, ${rule.digest})
      on conflict (name) where removed_at is null do nothing
      returning *
    ), event as (
      insert into ${sql.t.alert_events} (rule_id, by, action, note, details)
      select id, ${actor.by}, 'rule added', ${actor.note}, ${sql.json({ after: settings(rule) })} from added
    )
    select ${COLUMNS(sql)} from added`;
  return row;
}

/** Rules in use (paused ones included), by name; removed ones too when asked. */
export async function listAlertRules(sql: Sql, options: { removed?: boolean } = {}): Promise<AlertRuleRow[]> {
  return sql<AlertRuleRow[]>`
    select ${COLUMNS(sql)} from ${sql.t.alert_rules}
    where ${Boolean(options.removed)} or removed_at is null
    order by name, removed_at nulls first, id`;
}

/** The rule in use with this name (a removed rule is found by nothing but its alerts). */
export async function findAlertRule(sql: Sql, name: string): Promise<AlertRuleRow | undefined> {
  const [row] = await sql<AlertRuleRow[]>`
    select ${COLUMNS(sql)} from ${sql.t.alert_rules} where name = ${name} and removed_at is null`;
  return row;
}

/**
 * Replaces the settings of the rule in use named `name` and records the change with the
 * settings before and after. Alerts raised and messages queued before keep what they had.
 */
export async function updateAlertRule(
  sql: Sql,
  name: string,
  rule: Omit<AlertRuleInput, "name">,
  actor: RuleActor,
): Promise<{ before: AlertRuleRow; after: AlertRuleRow } | undefined> {
  return sql.begin(async (tx) => {
    const [before] = await tx<AlertRuleRow[]>`
      select ${COLUMNS(sql)} from ${tx.t.alert_rules} where name = ${name} and removed_at is null for update`;
    if (!before) return undefined;
    const [after] = await tx<AlertRuleRow[]>`
      update ${tx.t.alert_rules}
      set lists = ${rule.lists}, headings = ${rule.headings}, channel = ${rule.channel},
          target = ${rule.target}, digest = ${rule.digest}, updated_at = now()
      where id = ${before.id}
      returning ${COLUMNS(sql)}`;
    await tx`
      insert into ${tx.t.alert_events} (rule_id, by, action, note, details)
      values (${before.id}, ${actor.by}, 'rule edited', ${actor.note},
              ${tx.json({ before: settings(before), after: settings({ ...rule, name }) })})`;
    return { before, after: after! };
  });
}

export type RuleSwitch = "paused" | "resumed" | "removed";

/**
 * Pauses, resumes or removes the rule in use named `name`, with its event. A paused or removed
 * rule raises nothing (the scan takes enabled rules only). Removing also ends the rule's messages
 * not sent yet (dead, with the reason), so nothing goes out for a rule its owner took away.
 * Returns the rule as it was before, or undefined when there is none; `changed` is false when
 * the rule was in that state already (nothing written).
 */
export async function switchAlertRule(
  sql: Sql,
  name: string,
  to: RuleSwitch,
  actor: RuleActor,
): Promise<{ rule: AlertRuleRow; changed: boolean; endedMessages: number } | undefined> {
  return sql.begin(async (tx) => {
    const [rule] = await tx<AlertRuleRow[]>`
      select ${COLUMNS(sql)} from ${tx.t.alert_rules} where name = ${name} and removed_at is null for update`;
    if (!rule) return undefined;
    if ((to === "paused" && !rule.enabled) || (to === "resumed" && rule.enabled))
      return { rule, changed: false, endedMessages: 0 };
    let endedMessages = 0;
    if (to === "removed") {
      await tx`
        update ${tx.t.alert_rules} set enabled = false, removed_at = now(), updated_at = now()
        where id = ${rule.id}`;
      const ended = await tx`
        update ${tx.t.alert_deliveries}
        set status = 'dead', last_error = ${`not sent: rule ${name} was removed by ${actor.by}`}
        where rule_id = ${rule.id} and status = 'pending'
        returning id`;
      endedMessages = ended.length;
    } else {
      await tx`
        update ${tx.t.alert_rules} set enabled = ${to === "resumed"}, updated_at = now() where id = ${rule.id}`;
    }
    await tx`
      insert into ${tx.t.alert_events} (rule_id, by, action, note)
      values (${rule.id}, ${actor.by}, ${`rule ${to}`}, ${actor.note})`;
    return { rule, changed: true, endedMessages };
  });
}

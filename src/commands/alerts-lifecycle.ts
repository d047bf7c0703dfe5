/**
 * `regwatch alerts list|ack|resolve|snooze|show`: the alert lifecycle. Every action is kept as an
 * event (who, when, what, why), so acting twice on an alert adds to its history, and `alerts show`
 * prints the alert, the values of its change and that history.
 */

import { type Command, InvalidArgumentError } from "commander";
import { alertDetail } from "../alerts/sql/history.ts";
import {
  ALERT_STATUSES,
  type AlertStatus,
  deadDeliveries,
  listAlerts,
  reopenSnoozed,
  setAlertStatus,
} from "../alerts/sql/lifecycle.ts";
import { businessLabel, changeText } from "../changes/format.ts";
import { givenNameLabel } from "../changes/given-name.ts";
import { localDateTime } from "../dates.ts";
import type { Sql } from "../db/connect.ts";
import { EXIT, type ExitCode, RegwatchError, UsageError } from "../errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { formatTable } from "../search/format.ts";
import { readGivenNames } from "../search/sql/given-names.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { actorName, BY_HELP } from "./actor.ts";
import { parseDateArg, parsePositiveInt } from "./arg-parsers.ts";
import { type Context, runAction, withDatabase } from "./context.ts";

export function registerLifecycleCommands(alerts: Command): void {
  alerts
    .command("list")
    .addOption(accountOption())
    .description("alerts, newest first, with their status and delivery state; dead messages after them")
    .option("--status <status>", `only alerts with this status (${ALERT_STATUSES.join(", ")})`, parseStatus)
    .option("--list <name>", "only alerts of changes reported by this watch list (name or key)")
    .option("--limit <n>", "show at most this many alerts", parsePositiveInt, 100)
    .option("--json", "print JSON")
    .action((opts: { status?: AlertStatus; list?: string; limit: number; json?: boolean } & AccountFlag) =>
      runAction(
        (ctx) =>
          withDatabase(ctx, async (db) => {
            await reopenEnded(ctx, db.sql);
            return listCommand(db.sql, opts);
          }),
        opts,
      ),
    );

  const lifecycle = [
    ["ack", "acknowledged", "someone is on it"],
    ["resolve", "resolved", "dealt with"],
  ] as const;
  for (const [name, status, meaning] of lifecycle) {
    alerts
      .command(`${name} <ids...>`)
      .addOption(accountOption())
      .description(`mark alerts ${status} (${meaning}), recording who, when and why in their history`)
      .option("--by <who>", BY_HELP)
      .option("--note <text>", "why")
      .action((ids: string[], opts: { by?: string; note?: string } & AccountFlag) =>
        runAction((ctx) => changeStatus(ctx, { ids, status, by: actorName(opts.by), note: opts.note }), opts),
      );
  }
  alerts
    .command("snooze <ids...>")
    .addOption(accountOption())
    .description("silence alerts until a day (today or later); they are open again the day after")
    .requiredOption("--until <date>", "last day of the snooze (YYYY-MM-DD), not before today", parseDateArg)
    .option("--by <who>", BY_HELP)
    .option("--note <text>", "why")
    .action((ids: string[], opts: { until: string; by?: string; note?: string } & AccountFlag) =>
      runAction(
        (ctx) =>
          changeStatus(ctx, {
            ids,
            status: "snoozed",
            by: actorName(opts.by),
            note: opts.note,
            until: opts.until,
          }),
        opts,
      ),
    );

  alerts
    .command("show <id>")
    .addOption(accountOption())
    .description("one alert: its rule, the business, the values of its change, its messages and its history")
    .option("--json", "print JSON")
    .action((raw: string, opts: { json?: boolean } & AccountFlag) =>
      runAction((ctx) => {
        const [id] = alertIds([raw]);
        return withDatabase(ctx, async (db) => {
          await reopenEnded(ctx, db.sql);
          const detail = await alertDetail(db.sql, id!);
          if (!detail) throw new RegwatchError("NOT_FOUND", `no alert with id ${id}`);
          if (opts.json) process.stdout.write(`${JSON.stringify(detail, null, 2)}\n`);
          else process.stdout.write(showText(detail));
          return EXIT.ok;
        });
      }, opts),
    );
}

/** A snooze that has ended shows as open wherever it is looked at. */
async function reopenEnded(ctx: Context, sql: Sql): Promise<void> {
  const now = new Date();
  await reopenSnoozed(sql, localDateTime(now, ctx.config.tz).date, now);
}

function showText(d: NonNullable<Awaited<ReturnType<typeof alertDetail>>>): string {
  const c = d.content;
  const lines = [
    `alert ${d.id}: ${d.status === "snoozed" ? `snoozed to ${d.snoozedUntil}` : d.status}`,
    `rule      ${d.rule}${d.ruleRemovedAt ? ` (removed ${d.ruleRemovedAt.toISOString()})` : ""}`,
    `raised    ${d.raisedAt.toISOString()}${d.runId !== null ? ` by run ${d.runId}` : ""}`,
  ];
  if (c) {
    lines.push(
      `business  ${businessLabel(c.name, c.taxId)}`,
      `change    ${c.changeDate}, chapter ${c.chapter}; lists: ${c.lists.join(", ") || "-"}`,
      ...c.headings.map(
        (h) => `  ${changeText(h)}${h.orderAmbiguous ? "  (order within the day unknown)" : ""}`,
      ),
    );
  }
  lines.push("messages:");
  if (d.messages.length === 0) lines.push("  none");
  for (const m of d.messages)
    lines.push(
      `  ${m.messageId} (${m.kind}): ${m.status}, ${m.attempts} attempt(s)${m.lastError ? `; last error: ${m.lastError}` : ""}`,
    );
  lines.push("history:");
  if (d.events.length === 0) lines.push("  raised, nothing done yet");
  for (const e of d.events)
    lines.push(
      `  ${e.at.toISOString()}  ${e.action}${e.snoozedUntil ? ` until ${e.snoozedUntil}` : ""} by ${e.by}${e.note ? `: ${e.note}` : ""}`,
    );
  // Names, values, notes and errors come from the registry, receivers and people: escaped.
  return `${lines.map(terminalSafe).join("\n")}\n`;
}

async function listCommand(
  sql: Sql,
  opts: { status?: AlertStatus; list?: string; limit: number; json?: boolean },
): Promise<ExitCode> {
  const listed = await listAlerts(sql, { status: opts.status, list: opts.list, limit: opts.limit });
  const given = await readGivenNames(sql, [...new Set(listed.filter((a) => !a.name).map((a) => a.taxId))]);
  const rows = listed.map((a) => ({ ...a, givenName: given.get(a.taxId) ?? null }));
  const dead = await deadDeliveries(sql, 50);
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ alerts: rows, deadDeliveries: dead }, null, 2)}\n`);
    return EXIT.ok;
  }
  if (rows.length === 0) process.stdout.write("no alerts\n");
  else
    process.stdout.write(
      `${formatTable(
        ["id", "status", "rule", "tax id", "name", "date", "headings", "lists", "delivery", "by / note"],
        rows.map((a) => [
          String(a.id),
          a.status === "snoozed" ? `snoozed to ${a.snoozedUntil}` : a.status,
          a.rule,
          a.taxId,
          a.name ?? (a.givenName ? givenNameLabel(a.givenName) : ""),
          a.changeDate,
          a.headings.join(","),
          a.lists.join(","),
          a.delivery ?? "-",
          [a.statusBy, a.statusNote].filter(Boolean).join(": "),
        ]),
      )}\n`,
    );
  if (dead.length > 0) {
    process.stdout.write(
      `\ndead messages (not retried; fix the cause and add the rule again or resend by hand):\n`,
    );
    process.stdout.write(
      `${formatTable(
        ["delivery", "message id", "rule", "channel", "target", "attempts", "last error"],
        dead.map((d) => [
          String(d.id),
          d.messageId,
          d.rule,
          d.channel,
          d.target,
          String(d.attempts),
          d.lastError ?? "",
        ]),
      )}\n`,
    );
  }
  return EXIT.ok;
}

function alertIds(raw: readonly string[]): number[] {
  return raw.map((r) => {
    if (!/^\d+$/.test(r) || !Number.isSafeInteger(Number(r)))
      throw new UsageError(`alert id "${r}" is not a whole number`);
    return Number(r);
  });
}

async function changeStatus(
  ctx: Context,
  change: {
    ids: string[];
    status: "acknowledged" | "resolved" | "snoozed";
    by: string;
    note?: string;
    until?: string;
  },
): Promise<ExitCode> {
  const ids = alertIds(change.ids);
  const by = change.by.trim();
  if (by === "") throw new UsageError("--by must name who is acting");
  const now = new Date();
  // A snooze that ended before it began would silence nothing and reopen at once.
  const today = localDateTime(now, ctx.config.tz).date;
  if (change.until !== undefined && change.until < today)
    throw new UsageError(`--until ${change.until} is in the past (today is ${today} in ${ctx.config.tz})`);
  return withDatabase(ctx, async (db) => {
    const changed = await setAlertStatus(db.sql, {
      ids,
      status: change.status,
      by,
      note: change.note?.trim() || null,
      snoozedUntil: change.until ?? null,
      at: now,
    });
    const missing = ids.filter((id) => !changed.includes(id));
    if (changed.length > 0)
      process.stdout.write(
        `${changed.length} alert(s) ${change.status}${change.until ? ` until ${change.until}` : ""} by ${by}: ${changed.join(", ")}\n`,
      );
    if (missing.length > 0) throw new RegwatchError("NOT_FOUND", `no alert with id ${missing.join(", ")}`);
    return EXIT.ok;
  });
}

function parseStatus(value: string): AlertStatus {
  if (!ALERT_STATUSES.includes(value as AlertStatus))
    throw new InvalidArgumentError(`"${value}" is not one of ${ALERT_STATUSES.join(", ")}.`);
  return value as AlertStatus;
}

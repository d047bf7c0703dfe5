/**
 * `regwatch alerts ...`: rules, the alert lifecycle (list, ack, resolve, snooze), delivery of the
 * outbox, and a test message per rule.
 */
import { type Command, InvalidArgumentError } from "commander";
import { deliverAlerts } from "../alerts/deliver.ts";
import { scopeProblems, validateRule } from "../alerts/rule-input.ts";
import { sendTestMessage } from "../alerts/test-message.ts";
import { localDateTime } from "../dates.ts";
import {
  ALERT_STATUSES,
  type AlertStatus,
  deadDeliveries,
  listAlerts,
  reopenSnoozed,
  setAlertStatus,
} from "../db/alerts-lifecycle.ts";
import { deleteAlertRule, findAlertRule, insertAlertRule, listAlertRules } from "../db/alerts-rules.ts";
import { knownLists, someSeenHeadings, unseenHeadings } from "../db/alerts-scope.ts";
import { EXIT, type ExitCode, RegwatchError, UsageError } from "../errors.ts";
import { formatTable } from "../search/format.ts";
import { redactSecrets } from "../secrets.ts";
import { type Context, collect, parseDateArg, parsePositiveInt, runAction, withDatabase } from "./context.ts";

export function registerAlerts(program: Command): void {
  const alerts = program
    .command("alerts")
    .description("alert rules, the alert lifecycle, and delivery of alert messages");
  registerRuleCommands(alerts);

  alerts
    .command("list")
    .description("alerts, newest first, with their status and delivery state; dead messages after them")
    .option("--status <status>", `only alerts with this status (${ALERT_STATUSES.join(", ")})`, parseStatus)
    .option("--list <name>", "only alerts of changes reported by this watch list (name or key)")
    .option("--limit <n>", "show at most this many alerts", parsePositiveInt, 100)
    .option("--json", "print JSON")
    .action((opts: { status?: AlertStatus; list?: string; limit: number; json?: boolean }) =>
      runAction((ctx) =>
        withDatabase(ctx, async (db) => {
          // A snooze that has ended shows as open wherever it is looked at.
          await reopenSnoozed(db.sql, localDateTime(new Date(), ctx.config.tz).date, new Date());
          return listCommand(db.sql, opts);
        }),
      ),
    );

  const lifecycle = [
    ["ack", "acknowledged", "someone is on it"],
    ["resolve", "resolved", "dealt with"],
  ] as const;
  for (const [name, status, meaning] of lifecycle) {
    alerts
      .command(`${name} <ids...>`)
      .description(`mark alerts ${status} (${meaning}), recording who, when and why`)
      .requiredOption("--by <who>", "who is acting")
      .option("--note <text>", "why")
      .action((ids: string[], opts: { by: string; note?: string }) =>
        runAction((ctx) => changeStatus(ctx, { ids, status, by: opts.by, note: opts.note })),
      );
  }
  alerts
    .command("snooze <ids...>")
    .description("silence alerts until a day; they are open again the day after")
    .requiredOption("--until <date>", "last day of the snooze (YYYY-MM-DD)", parseDateArg)
    .requiredOption("--by <who>", "who is acting")
    .option("--note <text>", "why")
    .action((ids: string[], opts: { until: string; by: string; note?: string }) =>
      runAction((ctx) =>
        changeStatus(ctx, { ids, status: "snoozed", by: opts.by, note: opts.note, until: opts.until }),
      ),
    );

  alerts
    .command("deliver")
    .description("raise alerts for runs not scanned yet and send every pending message now (backoff ignored)")
    .option("--json", "print the report as JSON")
    .action((opts: { json?: boolean }) =>
      runAction((ctx) =>
        withDatabase(ctx, async (db) => {
          const report = await deliverAlerts(
            { sql: db.sql, config: ctx.config, log: ctx.log },
            { ignoreBackoff: true },
          );
          if (opts.json) process.stdout.write(`${JSON.stringify(report)}\n`);
          else
            process.stdout.write(
              `alerts raised ${report.raised}, reopened ${report.reopened}; messages attempted ${report.attempted}: sent ${report.sent}, retrying ${report.retrying}, dead ${report.dead}, waiting for configuration ${report.blocked}, left for a later pass after their receiver failed ${report.deferred}\n`,
            );
          return report.retrying + report.dead + report.blocked + report.deferred > 0 ? EXIT.failed : EXIT.ok;
        }),
      ),
    );

  alerts
    .command("test <name>")
    .description(
      "send a clearly marked test message through a rule's channel; exit 0 only when it was accepted",
    )
    .action((name: string) =>
      runAction((ctx) =>
        withDatabase(ctx, async (db) => {
          const rule = await findAlertRule(db.sql, name);
          if (!rule) throw new UsageError(`no alert rule named "${name}"`);
          const { messageId, outcome } = await sendTestMessage(db.sql, ctx.config, rule);
          if (outcome.kind === "sent") {
            process.stdout.write(
              `test message ${messageId} accepted by ${rule.channel} ${rule.target}${outcome.reply ? `: ${outcome.reply}` : ""}\n`,
            );
            return EXIT.ok;
          }
          process.stderr.write(
            `regwatch: test message ${messageId} not accepted: ${redactSecrets(outcome.error)}\n`,
          );
          return EXIT.failed;
        }),
      ),
    );
}

function registerRuleCommands(alerts: Command): void {
  const rule = alerts.command("rule").description("manage alert rules");
  rule
    .command("add <name>")
    .description("add a rule: which changes (lists, headings) are reported, how and to whom")
    .requiredOption("--channel <channel>", "webhook, email or notify")
    .requiredOption(
      "--target <target>",
      "webhook URL, e-mail address(es) separated by commas, or NOTIFY channel",
    )
    .option(
      "--list <name>",
      "only changes reported by this watch list, by name or key (repeatable; default every list)",
      collect,
      [],
    )
    .option(
      "--heading <heading>",
      "only changes of this heading (repeatable; default every heading)",
      collect,
      [],
    )
    .option(
      "--new-heading",
      "accept a --heading no stored change has named yet (by default such a heading is refused as a likely typo)",
    )
    .option("--digest", "one message per run listing every alert, instead of one per alert")
    .action(
      (
        name: string,
        opts: {
          channel: string;
          target: string;
          list: string[];
          heading: string[];
          digest?: boolean;
          newHeading?: boolean;
        },
      ) =>
        runAction(async (ctx) => {
          const { rule: input, problems } = validateRule({
            name,
            channel: opts.channel,
            target: opts.target,
            lists: opts.list,
            headings: opts.heading,
            digest: Boolean(opts.digest),
          });
          if (!input) throw new UsageError(problems.join("; "));
          return withDatabase(ctx, async (db) => {
            const [lists, unseen, seen] = await Promise.all([
              knownLists(db.sql),
              unseenHeadings(db.sql, input.headings),
              someSeenHeadings(db.sql, 20),
            ]);
            const refused = scopeProblems(input, { ...lists, unseen, seen }, Boolean(opts.newHeading));
            if (refused.length > 0) throw new UsageError(refused.join("; "));
            const row = await insertAlertRule(db.sql, input);
            if (!row) throw new UsageError(`an alert rule named "${input.name}" exists already`);
            process.stdout.write(`rule ${row.name} added: ${describeRule(row)}\n`);
            if (unseen.length > 0)
              process.stderr.write(
                `regwatch: note: no stored change has named ${unseen.join(", ")} yet; the rule fires once the registry reports it\n`,
              );
            const missing = missingConfig(ctx, row.channel);
            if (missing) process.stderr.write(`regwatch: note: ${missing}\n`);
            return EXIT.ok;
          });
        }),
    );
  rule
    .command("list")
    .description("every alert rule")
    .option("--json", "print JSON")
    .action((opts: { json?: boolean }) =>
      runAction((ctx) =>
        withDatabase(ctx, async (db) => {
          const rules = await listAlertRules(db.sql);
          if (opts.json) process.stdout.write(`${JSON.stringify(rules, null, 2)}\n`);
          else if (rules.length === 0) process.stdout.write("no alert rules\n");
          else
            process.stdout.write(
              `${formatTable(
                ["name", "channel", "target", "lists", "headings", "digest", "enabled", "created"],
                rules.map((r) => [
                  r.name,
                  r.channel,
                  r.target,
                  r.lists.join(",") || "all",
                  r.headings.join(",") || "all",
                  r.digest ? "yes" : "no",
                  r.enabled ? "yes" : "no",
                  r.createdAt.toISOString(),
                ]),
              )}\n`,
            );
          return EXIT.ok;
        }),
      ),
    );
  rule
    .command("remove <name>")
    .description("remove a rule, with its alerts and the messages not sent yet")
    .action((name: string) =>
      runAction((ctx) =>
        withDatabase(ctx, async (db) => {
          if (!(await deleteAlertRule(db.sql, name))) throw new UsageError(`no alert rule named "${name}"`);
          process.stdout.write(`rule ${name} removed\n`);
          return EXIT.ok;
        }),
      ),
    );
}

function describeRule(r: {
  channel: string;
  target: string;
  lists: string[];
  headings: string[];
  digest: boolean;
}): string {
  return `${r.channel} to ${r.target}; lists ${r.lists.join(", ") || "all"}; headings ${r.headings.join(", ") || "all"}${r.digest ? "; digest per run" : ""}`;
}

function missingConfig(ctx: Context, channel: string): string | undefined {
  if (channel === "webhook" && !ctx.config.webhookSecret)
    return "REGWATCH_WEBHOOK_SECRET is not set; webhook messages wait until it is";
  if (channel === "email" && !(ctx.config.smtpUrl && ctx.config.mailFrom))
    return "REGWATCH_SMTP_URL and REGWATCH_MAIL_FROM are needed to send e-mail";
  return undefined;
}

async function listCommand(
  sql: Parameters<typeof listAlerts>[0],
  opts: { status?: AlertStatus; list?: string; limit: number; json?: boolean },
): Promise<ExitCode> {
  const rows = await listAlerts(sql, { status: opts.status, list: opts.list, limit: opts.limit });
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
          a.name ?? "",
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
  const ids = change.ids.map((raw) => {
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)))
      throw new UsageError(`alert id "${raw}" is not a whole number`);
    return Number(raw);
  });
  const by = change.by.trim();
  if (by === "") throw new UsageError("--by must name who is acting");
  return withDatabase(ctx, async (db) => {
    const changed = await setAlertStatus(db.sql, {
      ids,
      status: change.status,
      by,
      note: change.note?.trim() || null,
      snoozedUntil: change.until ?? null,
      at: new Date(),
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

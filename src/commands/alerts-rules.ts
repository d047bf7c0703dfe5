/**
 * `regwatch alerts rule ...`: add, list, edit, pause, resume and remove alert rules. Nothing is
 * deleted: a removed rule keeps its alerts and their history, and every change to a rule is an
 * event (who, when, what, why). A removed rule's name may be given to a new rule.
 */
import type { Command } from "commander";
import { ruleEvents } from "../alerts/sql/history.ts";
import {
  type AlertRuleRow,
  findAlertRule,
  listAlertRules,
  type RuleSwitch,
  switchAlertRule,
} from "../alerts/sql/rules.ts";
import { EXIT, type ExitCode, UsageError } from "../errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { formatTable } from "../search/format.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { type ActorFlags, actorOf, checkedRule, type EditFlags, storeRule } from "./alerts-rule-save.ts";
import { collect } from "./arg-parsers.ts";
import { type Context, runAction, withDatabase } from "./context.ts";

/** The options add and edit share: which changes a rule covers. */
function scopeOptions(command: Command, verb: string): Command {
  return command
    .option(
      "--list <name>",
      `only changes reported by this watch list, by name or key (repeatable; ${verb})`,
      collect,
      [],
    )
    .option("--heading <heading>", `only changes of this heading (repeatable; ${verb})`, collect, [])
    .option(
      "--new-heading",
      "accept a --heading key the registry is not known to send and no stored change has named yet, a heading it may add later (by default such a heading is refused as a likely typo)",
    );
}

function actorOptions(command: Command): Command {
  return command
    .addOption(accountOption())
    .option("--by <who>", "who is acting, kept in the rule's history (default: the operating-system user)")
    .option("--note <text>", "why, kept in the rule's history");
}

export function registerRuleCommands(alerts: Command): void {
  const rule = alerts
    .command("rule")
    .description("manage alert rules; every change is kept in their history");
  actorOptions(
    scopeOptions(
      rule
        .command("add <name>")
        .description("add a rule: which changes (lists, headings) are reported, how and to whom")
        .requiredOption("--channel <channel>", "webhook, email or notify")
        .requiredOption(
          "--target <target>",
          "webhook URL, e-mail address(es) separated by commas, or NOTIFY channel",
        ),
      "default every list / heading",
    ).option("--digest", "one message per run listing every alert, instead of one per alert"),
  ).action((name: string, opts: EditFlags & AccountFlag & { channel: string; target: string }) =>
    runAction((ctx) => {
      // Checked before connecting: a malformed rule needs no database to be refused.
      const input = checkedRule(undefined, opts, (scope) => ({
        ...scope,
        name,
        channel: opts.channel,
        target: opts.target,
        digest: Boolean(opts.digest),
      }));
      const actor = actorOf(opts);
      return withDatabase(ctx, (db) => storeRule(ctx, db.sql, undefined, input, opts, actor));
    }, opts),
  );

  actorOptions(
    scopeOptions(
      rule
        .command("edit <name>")
        .description(
          "change a rule's channel, target, lists, headings or digest; options not given stay as they are (alerts raised before keep what they had)",
        )
        .option("--channel <channel>", "webhook, email or notify")
        .option(
          "--target <target>",
          "webhook URL, e-mail address(es) separated by commas, or NOTIFY channel",
        ),
      "replaces the rule's lists / headings",
    )
      .option("--all-lists", "cover every list again")
      .option("--all-headings", "cover every heading again")
      .option("--digest", "one message per run")
      .option("--no-digest", "one message per alert"),
  ).action((name: string, opts: EditFlags & AccountFlag) =>
    runAction(
      (ctx) =>
        withDatabase(ctx, async (db) => {
          const actor = actorOf(opts);
          const current = await findAlertRule(db.sql, name);
          if (!current) throw new UsageError(`no alert rule named "${name}"`);
          const input = checkedRule(current, opts, (scope) => ({
            ...scope,
            name,
            channel: opts.channel ?? current.channel,
            target: opts.target ?? current.target,
            digest: opts.digest ?? current.digest,
          }));
          return storeRule(ctx, db.sql, current, input, opts, actor);
        }),
      opts,
    ),
  );

  const switches: [string, RuleSwitch, string][] = [
    [
      "pause",
      "paused",
      "stop raising alerts for a rule until it is resumed (messages already queued still go out)",
    ],
    [
      "resume",
      "resumed",
      "raise alerts for a paused rule again (changes stored while it was paused raise nothing)",
    ],
    [
      "remove",
      "removed",
      "remove a rule: it raises nothing more and its messages not sent yet are not sent; its alerts and their history stay, and the name may be used again",
    ],
  ];
  for (const [verb, to, description] of switches) {
    actorOptions(rule.command(`${verb} <name>`).description(description)).action(
      (name: string, opts: ActorFlags & AccountFlag) =>
        runAction((ctx) => switchRule(ctx, name, to, opts), opts),
    );
  }

  rule
    .command("history <name>")
    .addOption(accountOption())
    .description("every change to the rules of this name (removed ones too): who, when, what, why")
    .option("--json", "print JSON")
    .action((name: string, opts: { json?: boolean } & AccountFlag) =>
      runAction(
        (ctx) =>
          withDatabase(ctx, async (db) => {
            const events = await ruleEvents(db.sql, name);
            if (events.length === 0) throw new UsageError(`no alert rule named "${name}" has existed`);
            if (opts.json) process.stdout.write(`${JSON.stringify(events, null, 2)}\n`);
            else
              process.stdout.write(
                events
                  .map(
                    (e) =>
                      `${e.at.toISOString()}  rule ${e.ruleId}  ${e.action} by ${terminalSafe(e.by)}${e.note ? `: ${terminalSafe(e.note)}` : ""}\n`,
                  )
                  .join(""),
              );
            return EXIT.ok;
          }),
        opts,
      ),
    );

  rule
    .command("list")
    .addOption(accountOption())
    .description("every alert rule in use (paused ones included)")
    .option("--removed", "include removed rules")
    .option("--json", "print JSON")
    .action((opts: { removed?: boolean; json?: boolean } & AccountFlag) =>
      runAction(
        (ctx) =>
          withDatabase(ctx, async (db) => {
            const rules = await listAlertRules(db.sql, { removed: opts.removed });
            if (opts.json) process.stdout.write(`${JSON.stringify(rules, null, 2)}\n`);
            else if (rules.length === 0) process.stdout.write("no alert rules\n");
            else
              process.stdout.write(
                `${formatTable(
                  ["name", "channel", "target", "lists", "headings", "digest", "state", "created"],
                  rules.map((r) => [
                    r.name,
                    r.channel,
                    r.target,
                    r.lists.join(",") || "all",
                    r.headings.join(",") || "all",
                    r.digest ? "yes" : "no",
                    ruleState(r),
                    r.createdAt.toISOString(),
                  ]),
                )}\n`,
              );
            return EXIT.ok;
          }),
        opts,
      ),
    );
}

function ruleState(r: Pick<AlertRuleRow, "enabled" | "removedAt">): string {
  if (r.removedAt) return `removed ${r.removedAt.toISOString()}`;
  return r.enabled ? "active" : "paused";
}

async function switchRule(ctx: Context, name: string, to: RuleSwitch, opts: ActorFlags): Promise<ExitCode> {
  const actor = actorOf(opts);
  return withDatabase(ctx, async (db) => {
    const result = await switchAlertRule(db.sql, name, to, actor);
    if (!result) throw new UsageError(`no alert rule named "${name}"`);
    if (!result.changed) {
      process.stdout.write(`rule ${name} is ${to === "paused" ? "paused" : "active"} already\n`);
      return EXIT.ok;
    }
    const ended =
      result.endedMessages > 0 ? `; ${result.endedMessages} message(s) not sent yet will not be sent` : "";
    process.stdout.write(
      `rule ${name} ${to} by ${actor.by}${ended}${to === "removed" ? "; its alerts and their history stay (alerts list, alerts show ID)" : ""}\n`,
    );
    return EXIT.ok;
  });
}

/**
 * `regwatch alerts ...`: rules (alerts-rules.ts), the alert lifecycle (alerts-lifecycle.ts),
 * delivery of the outbox (alerts-deliver.ts), and a test message per rule.
 */
import type { Command } from "commander";
import { findAlertRule } from "../alerts/sql/rules.ts";
import { sendTestMessage } from "../alerts/test-message.ts";
import { EXIT, UsageError } from "../errors.ts";
import { redactSecrets } from "../secrets.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { runDeliverCommand } from "./alerts-deliver.ts";
import { registerLifecycleCommands } from "./alerts-lifecycle.ts";
import { registerAlertsReport } from "./alerts-report.ts";
import { registerRuleCommands } from "./alerts-rules.ts";
import { runAction, withDatabase } from "./context.ts";

export function registerAlerts(program: Command): void {
  const alerts = program
    .command("alerts")
    .description("alert rules, the alert lifecycle, and delivery of alert messages");
  registerRuleCommands(alerts);
  registerLifecycleCommands(alerts);
  registerAlertsReport(alerts);

  alerts
    .command("deliver")
    .addOption(accountOption())
    .description("raise alerts for runs not scanned yet and send every pending message now (backoff ignored)")
    .option("--json", "print the report as JSON")
    .action((opts: { json?: boolean } & AccountFlag) =>
      runAction((ctx) => runDeliverCommand(ctx, opts), opts),
    );

  alerts
    .command("test <name>")
    .addOption(accountOption())
    .description(
      "send a clearly marked test message through a rule's channel; exit 0 only when it was accepted",
    )
    .action((name: string, opts: AccountFlag) =>
      runAction(
        (ctx) =>
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
        opts,
      ),
    );
}

/**
 * `regwatch retention --dry-run | apply`: personal data kept only as long as the policy says
 * (REGWATCH_RETAIN_*_DAYS). The dry run counts per kind what would go and changes nothing; apply
 * removes or pseudonymises it in committed batches and records each kind's count in
 * `retention_runs`. The daemon applies the same pass once a day.
 */
import type { Command } from "commander";
import { registryDay } from "../dates.ts";
import { EXIT, UsageError } from "../errors.ts";
import { type RetentionPass, runRetentionPass } from "../retention/apply.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { runAction, withDatabase } from "./context.ts";

export function registerRetention(program: Command): void {
  program
    .command("retention")
    .addOption(accountOption())
    .description(
      "remove or pseudonymise personal data older than the retention policy (--dry-run: only count it)",
    )
    .argument("[action]", "apply: remove or pseudonymise what the policy no longer keeps")
    .option("--dry-run", "say what would be removed or pseudonymised, per kind, and change nothing")
    .option("--json", "print the pass as JSON")
    .action((action: string | undefined, opts: { dryRun?: boolean; json?: boolean } & AccountFlag) =>
      runAction((ctx) => {
        if (action !== undefined && action !== "apply")
          throw new UsageError(`retention: unknown action ${JSON.stringify(action)}; use apply or --dry-run`);
        if (action === undefined && !opts.dryRun)
          throw new UsageError("retention: say --dry-run to see what would go, or apply to remove it");
        return withDatabase(ctx, async (db) => {
          const pass = await runRetentionPass(db.sql, {
            settings: ctx.config.retention,
            today: registryDay(ctx.config.tz),
            tz: ctx.config.tz,
            dryRun: opts.dryRun === true,
            trigger: "cli",
          });
          process.stdout.write(opts.json ? `${JSON.stringify(pass)}\n` : passText(pass));
          return EXIT.ok;
        });
      }, opts),
    );
}

/** One line per kind: its count, what happens to it, and the rule. */
function passText(pass: RetentionPass): string {
  const verb = (action: string) =>
    pass.dryRun ? (action === "removed" ? "would be removed" : "would be pseudonymised") : action;
  const lines = pass.kinds.map(
    (k) =>
      `${k.kind.padEnd(17)} ${String(k.count).padStart(8)} ${verb(k.action)}  (kept ${k.days} days: before ${k.before})${pass.dryRun ? "" : `, ${k.batches} batches`}`,
  );
  const head = pass.dryRun
    ? `Retention dry run on ${pass.today}: nothing was changed\n`
    : `Retention applied on ${pass.today}; recorded in retention_runs\n`;
  return `${head}${lines.join("\n")}\n`;
}

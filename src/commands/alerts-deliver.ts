/**
 * `regwatch alerts deliver`: raise what is unscanned and send every pending message now, with the
 * same leases as the daemon's deliverer (the two never send one message at once). Backoff and
 * the receivers' circuit breakers are ignored: the operator asked for an attempt now. A pass that
 * hit an error of regwatch's own says it on stderr and exits 1.
 */
import { deliverAlerts } from "../alerts/deliver.ts";
import { EXIT, type ExitCode } from "../errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { type Context, withDatabase } from "./context.ts";

export async function runDeliverCommand(ctx: Context, opts: { json?: boolean }): Promise<ExitCode> {
  return withDatabase(ctx, async (db) => {
    const report = await deliverAlerts(
      { sql: db.sql, config: ctx.config, log: ctx.log },
      { ignoreBackoff: true },
    );
    if (opts.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else
      process.stdout.write(
        `alerts raised ${report.raised}, reopened ${report.reopened}; messages attempted ${report.attempted}: sent ${report.sent}, retrying ${report.retrying}, dead ${report.dead}, waiting for configuration ${report.blocked}, left for a later pass (an older message to the same receiver still pending) ${report.deferred}\n`,
      );
    if (report.error !== undefined)
      process.stderr.write(
        `${terminalSafe(`regwatch: alert delivery failed: ${report.error} (${report.unexpected} message(s) charged a failed attempt)`)}\n`,
      );
    const unfinished = report.retrying + report.dead + report.blocked + report.deferred;
    return unfinished > 0 || report.error !== undefined ? EXIT.failed : EXIT.ok;
  });
}

/** `regwatch status --fleet [--json]`: the fleet's accounts and workers (src/daemon/fleet-report.ts). */
import { loadAccounts } from "../accounts.ts";
import { formatFleetStatus, readFleetStatus } from "../daemon/fleet-report.ts";
import { jsonInZone } from "../dates.ts";
import { ConfigError, EXIT, UsageError } from "../errors.ts";
import { redactJson, redactSecrets } from "../secrets.ts";
import { runAction, withDatabase } from "./context.ts";

export function statusFleet(opts: { json?: boolean; account?: string }): Promise<void> {
  return runAction(async (ctx) => {
    if (opts.account !== undefined)
      throw new UsageError(
        "--fleet shows every account: use it without --account, or --account without --fleet",
      );
    const accounts = loadAccounts(ctx.config);
    if (accounts === undefined)
      throw new ConfigError([
        "REGWATCH_ACCOUNTS_FILE: status --fleet needs the accounts file; without one, `regwatch status` shows the one account",
      ]);
    return withDatabase(
      ctx,
      async (db) => {
        // Run errors may hold server text, which may echo a key: scrubbed before printing.
        const status = redactJson(
          await readFleetStatus(db.sql, accounts, ctx.config, new Date(), process.env),
        );
        process.stdout.write(
          redactSecrets(opts.json ? `${jsonInZone(status, ctx.config.tz, 2)}\n` : formatFleetStatus(status)),
        );
        return EXIT.ok;
      },
      // Its statements send and read no arrays (the schemas go as JSON): the driver's read of
      // the array types is left out, one round trip less. (Patched, that read leaves out the
      // tables' row types; unpatched it listed 58,000 types with a thousand accounts' tables.)
      { max: 2, fetchTypes: false },
    );
  });
}

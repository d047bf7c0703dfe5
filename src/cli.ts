/**
 * The `regwatch` command line. Each command lives in its own file under commands/ and is
 * registered here; commander reports argument errors, which exit 64 (EX_USAGE).
 */
import { Command, CommanderError } from "commander";
import { registerAlerts } from "./commands/alerts.ts";
import { registerBackfill } from "./commands/backfill.ts";
import { registerChanges } from "./commands/changes.ts";
import { registerCoverage } from "./commands/coverage.ts";
import { registerDaemon } from "./commands/daemon.ts";
import { registerDemo } from "./commands/demo.ts";
import { registerEmulator } from "./commands/emulator.ts";
import { registerGrantReader } from "./commands/grant-reader.ts";
import { registerLookup } from "./commands/lookup.ts";
import { registerMigrate } from "./commands/migrate.ts";
import { registerPayments } from "./commands/payments.ts";
import { registerReconcile } from "./commands/reconcile.ts";
import { registerReparse } from "./commands/reparse.ts";
import { registerStatus } from "./commands/status.ts";
import { registerSync } from "./commands/sync.ts";
import { registerWatch } from "./commands/watch.ts";
import { EXIT } from "./errors.ts";

const program = new Command()
  .name("regwatch")
  .description("Keeps a Postgres database in step with a business registry's watch service.")
  .showHelpAfterError("(run with --help for usage)")
  .exitOverride();

const commands = [
  registerMigrate,
  registerSync,
  registerBackfill,
  registerReconcile,
  registerLookup,
  registerWatch,
  registerGrantReader,
  registerEmulator,
  registerDaemon,
  registerStatus,
  registerReparse,
  registerChanges,
  registerCoverage,
  registerDemo,
  registerAlerts,
  registerPayments,
];
for (const register of commands) register(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  const benign = ["commander.helpDisplayed", "commander.help", "commander.version"].includes(error.code);
  process.exitCode = benign ? EXIT.ok : EXIT.usage;
}

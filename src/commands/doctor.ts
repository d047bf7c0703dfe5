/**
 * `regwatch doctor [--json]`: checks a setup before its first run and prints one line per check
 * (src/doctor/). A configuration that does not load is still a report: every bad variable is a
 * failed line, and the exit status is 78.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { type Account, loadAccounts, pickAccount } from "../accounts.ts";
import { type Config, loadConfig } from "../config.ts";
import { accountConfigForDoctor } from "../doctor/account-checks.ts";
import { judgeConfigProblems } from "../doctor/judge-setup.ts";
import { buildReport, type CheckResult, formatJson, formatText } from "../doctor/report.ts";
import { runDoctor } from "../doctor/run.ts";
import { ConfigError, coerceError, EXIT, type ExitCode, exitCodeOf, UsageError } from "../errors.ts";
import { redactSecrets } from "../secrets.ts";
import { type AccountFlag, accountOption } from "./account-option.ts";
import { configForCommand } from "./account-scope.ts";

export const DOCTOR_SUMMARY =
  "check a setup before the first run: configuration, database, keys, clock, description, schedule, file origins, alert targets";

export function registerDoctor(program: Command): void {
  program
    .command("doctor")
    .addOption(accountOption())
    .description(DOCTOR_SUMMARY)
    .option("--json", "print the report as JSON (check, status ok/warn/fail, message, next step)")
    .addHelpText(
      "after",
      [
        "",
        "Reads only: the watch interface's list of lists and its description, the root of each other",
        "file origin, and the search interface without a key (no search request is made with the key:",
        "each one counts toward the monthly quota). The SMTP server is greeted and webhook receivers",
        "are connected to, with no message sent. The database gets one test write, rolled back, and",
        "no migration.",
        "With REGWATCH_ACCOUNTS_FILE, --account NAME checks that account: its registry with its key,",
        "its schema, the variables naming its keys (never their values), the job queue, its jobs that",
        "failed for good, and whether a worker is alive; --all checks every account, one report each",
        "(exit: the worst of them).",
        "Exit 0 when every check passes (warnings allowed), 1 when one fails, 78 for configuration.",
      ].join("\n"),
    )
    .option("--all", "with REGWATCH_ACCOUNTS_FILE: check every account, one report each")
    .action(async (opts: { json?: boolean; all?: boolean } & AccountFlag) => {
      try {
        const now = new Date();
        if (opts.all) {
          const reports = (await doctorAll(opts)).map((r) => ({
            account: r.account,
            ...buildReport(r.results, now),
          }));
          const exitCode = worstExit(reports.map((r) => r.exitCode));
          process.stdout.write(
            opts.json
              ? formatJson({ generatedAt: now.toISOString(), exitCode, accounts: reports })
              : reports.map((r) => `${r.account ? `Account ${r.account}\n` : ""}${formatText(r)}`).join("\n"),
          );
          process.exitCode = exitCode;
          return;
        }
        const report = buildReport(await doctor(opts), now);
        process.stdout.write(opts.json ? formatJson(report) : formatText(report));
        process.exitCode = report.exitCode;
      } catch (error) {
        process.stderr.write(`regwatch: ${redactSecrets(coerceError(error).message)}\n`);
        // A bad --account is a usage error (64), like on every other command.
        process.exitCode = error instanceof UsageError ? exitCodeOf(error) : EXIT.failed;
      }
    });
}

/** 78 when any report's configuration failed, else 1 when any check failed, else 0. */
function worstExit(codes: readonly ExitCode[]): ExitCode {
  if (codes.includes(EXIT.config)) return EXIT.config;
  return codes.some((c) => c !== EXIT.ok) ? EXIT.failed : EXIT.ok;
}

/** `--all`: every account of the accounts file, one after the other (each report as `--account`). */
async function doctorAll(flag: AccountFlag): Promise<{ account?: string; results: CheckResult[] }[]> {
  if (flag.account !== undefined) throw new UsageError("--all checks every account: leave out --account");
  let accounts: Account[] | undefined;
  try {
    accounts = loadAccounts(loadConfig());
  } catch (error) {
    if (error instanceof ConfigError) return [{ results: judgeConfigProblems(error.problems) }];
    throw error;
  }
  if (!accounts) throw new UsageError("--all: no accounts file: REGWATCH_ACCOUNTS_FILE is not set");
  const out: { account: string; results: CheckResult[] }[] = [];
  for (const account of accounts)
    out.push({ account: account.name, results: await doctor({ account: account.name }) });
  return out;
}

async function doctor(flag: AccountFlag): Promise<CheckResult[]> {
  let base: Config;
  let accounts: Account[] | undefined;
  try {
    base = loadConfig();
    accounts = loadAccounts(base);
  } catch (error) {
    if (error instanceof ConfigError) return judgeConfigProblems(error.problems);
    throw error;
  }
  const dotenv = path.join(process.cwd(), ".env");
  const options = { env: process.env, ...(existsSync(dotenv) ? { dotenv } : {}) };
  // Without an accounts file the one configuration (and --account is refused, 64).
  if (!accounts) return runDoctor(await configForCommand(base, flag), options);
  // With one, the chosen account's configuration, its keys' variables and its jobs; a key
  // variable unset is a failed line, and the checks that do not need it still run.
  const account = pickAccount(accounts, flag.account, "or --all to check every account");
  return runDoctor(accountConfigForDoctor(base, account, process.env), { ...options, account });
}

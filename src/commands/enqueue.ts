/**
 * `regwatch enqueue KIND`: adds jobs to the fleet's queue, one per chosen account, for the
 * workers (`regwatch worker`, `daemon --worker`) to run. A job whose key is already queued or
 * running is not added twice; one that failed for good is replaced; the line printed says which.
 */
import type { Command } from "commander";
import { DEFAULT_SCHEMA } from "../account-name.ts";
import { type Account, loadAccounts } from "../accounts.ts";
import { ConfigError, EXIT, UsageError } from "../errors.ts";
import { accountDay, type JobKind, jobFor } from "../fleet/jobs.ts";
import { type EnqueueResult, enqueue } from "../fleet/queue.ts";
import { parseDateArg } from "./arg-parsers.ts";
import { runAction, withDatabase } from "./context.ts";

const KINDS: readonly JobKind[] = ["sync", "backfill", "reconcile", "deliver"];

interface EnqueueCliOptions {
  account?: string[];
  all?: boolean;
  from?: string;
  to?: string;
}

export function registerEnqueue(program: Command): void {
  program
    .command("enqueue")
    .description(
      "queue sync, backfill, reconcile or deliver jobs for accounts of the fleet; workers run them",
    )
    .argument("<kind>", `what to run: ${KINDS.join(", ")}`)
    .option("--account <name...>", "the accounts to queue it for (repeatable)")
    .option("--all", "queue it for every account of REGWATCH_ACCOUNTS_FILE")
    .option("--from <date>", "backfill only: first day to cover (YYYY-MM-DD)", parseDateArg)
    .option("--to <date>", "backfill only: last day to cover (YYYY-MM-DD)", parseDateArg)
    .addHelpText(
      "after",
      [
        "",
        "One job per account and kind and day (the account's local day; a backfill: its range). A job asked",
        "for again while one with its key is queued or running is not added: the line says which. One that",
        "failed for good is removed and the new one added in its place (a reconcile job keeps its key).",
        "",
        "Exit: 0 queued (or already there), 64 bad arguments, 78 no accounts file.",
      ].join("\n"),
    )
    .action((kind: string, opts: EnqueueCliOptions) =>
      runAction(async (ctx) => {
        const { config, log } = ctx;
        const jobKind = parseKind(kind);
        const range = backfillRange(jobKind, opts);
        const accounts = loadAccounts(config);
        if (!accounts)
          throw new ConfigError([
            "REGWATCH_ACCOUNTS_FILE: required by `regwatch enqueue` (jobs are queued per account)",
          ]);
        const chosen = chooseAccounts(accounts, opts);
        const now = new Date();
        const jobs = chosen.map(
          (a) =>
            // A person asked for it: its runs are recorded with trigger `manual`.
            ({
              ...jobFor(jobKind, a.name, accountDay(now, a.timezone ?? config.tz), range),
              manual: true,
            }) as const,
        );
        const results = await withDatabase({ config: { ...config, schema: DEFAULT_SCHEMA }, log }, (db) =>
          enqueue({ databaseUrl: db.url, log }, jobs, { maxAttempts: config.jobMaxAttempts }),
        );
        for (const result of results) process.stdout.write(`${describe(result)}\n`);
        return EXIT.ok;
      }),
    );
}

function parseKind(kind: string): JobKind {
  const found = KINDS.find((k) => k === kind);
  if (!found) throw new UsageError(`unknown job kind "${kind}": expected one of ${KINDS.join(", ")}`);
  return found;
}

function backfillRange(kind: JobKind, opts: EnqueueCliOptions): { from: string; to: string } | undefined {
  if (kind !== "backfill") {
    if (opts.from || opts.to) throw new UsageError(`--from and --to are for backfill jobs only, not ${kind}`);
    return undefined;
  }
  if (!opts.from || !opts.to) throw new UsageError("a backfill job needs both --from and --to");
  if (opts.to < opts.from) throw new UsageError(`--to ${opts.to} is before --from ${opts.from}`);
  return { from: opts.from, to: opts.to };
}

function chooseAccounts(accounts: readonly Account[], opts: EnqueueCliOptions): readonly Account[] {
  const names = opts.account ?? [];
  if (opts.all && names.length > 0) throw new UsageError("give either --account NAME... or --all, not both");
  if (opts.all) return accounts;
  if (names.length === 0) throw new UsageError("--account NAME... or --all is required");
  const unknown = names.filter((n) => !accounts.some((a) => a.name === n));
  if (unknown.length > 0)
    throw new UsageError(
      `unknown account ${unknown.join(", ")}: the accounts file has ${accounts.map((a) => a.name).join(", ")}`,
    );
  const wanted = new Set(names);
  return accounts.filter((a) => wanted.has(a.name));
}

function describe(result: EnqueueResult): string {
  const what = `${result.key} (job ${result.id})`;
  switch (result.state) {
    case "added":
      return `added           ${what}`;
    case "queued":
      return `already queued  ${what}`;
    case "running":
      return `already running ${what}`;
    case "failed":
      return `not added       ${what}: a job with this key failed for good and is kept in the queue`;
    case "replaced":
      return `added           ${what} in place of job ${result.replaced?.id ?? "?"}, which had failed for good`;
  }
}

/**
 * `regwatch status`: running and printing (its command line: status-command.ts); the report itself
 * is src/status/status-report.ts.
 */
import { FAILING_NEXT, failingText, recoveredText, roughAge } from "../alerts/delivery-health.ts";
import type { Config } from "../config.ts";
import { describeResumeState, type ResumeState, readResumeState } from "../daemon/resume-state.ts";
import { isoInZone, jsonInZone, zonedStamp } from "../dates.ts";
import type { Sql } from "../db/connect.ts";
import { EXIT } from "../errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { redactJson, redactSecrets } from "../secrets.ts";
import { CALENDAR_WEEKS, readStatus, type StatusReport } from "../status/status-report.ts";
import { runAction, withDatabase } from "./context.ts";

/** `account`: the account of an accounts file the status is of (absent for a plain install). */
export type Status = StatusReport<ResumeState | null> & { account?: string };

/** The status with the daemon's view of its schedule, when one is configured (no daemon needed). */
export function readFullStatus(
  sql: Sql,
  config: Pick<Config, "tz" | "searchMonthlyQuota"> & Partial<Pick<Config, "registryTz" | "schedule">>,
  now = new Date(),
): Promise<Status> {
  const { schedule } = config;
  return readStatus(sql, config, now, async (read) =>
    schedule
      ? zonedResumeState(await readResumeState(read, { schedule, tz: config.tz }, now), config.tz)
      : null,
  );
}

/** The schedule's instants in the report's zone, as every other time of `status --json` is. */
function zonedResumeState(state: ResumeState, timeZone: string): ResumeState {
  const zoned = (iso: string | null) => (iso === null ? null : isoInZone(new Date(iso), timeZone));
  return {
    ...state,
    slot: zoned(state.slot),
    nextAttemptAt: zoned(state.nextAttemptAt),
    nextScheduledRun: zoned(state.nextScheduledRun),
  };
}

/** `regwatch status [--json] [--fleet] [--account NAME]`, its options parsed (status-command.ts, or by hand: src/cli-status.ts). */
export async function runStatus(opts: StatusOptions): Promise<void> {
  // The fleet's view reads the accounts file: its code is loaded only for --fleet.
  if (opts.fleet) return (await import("./status-fleet.ts")).statusFleet(opts);
  return runAction(
    (ctx) =>
      withDatabase(
        ctx,
        async (db) => {
          // Run errors and file errors hold server text, which may echo a key: scrubbed before printing.
          const { account } = ctx.config;
          const status: Status = redactJson({
            ...(account ? { account } : {}),
            ...(await readFullStatus(db.sql, ctx.config)),
          });
          process.stdout.write(
            redactSecrets(opts.json ? `${jsonInZone(status, ctx.config.tz, 2)}\n` : formatStatus(status)),
          );
          return EXIT.ok;
        },
        // The report's statements send and read no arrays (json, text, numbers, dates).
        { max: 1, fetchTypes: false },
      ),
    opts,
  );
}

/** The options of `regwatch status`. */
export interface StatusOptions {
  json?: boolean;
  fleet?: boolean;
  account?: string;
}

export function formatStatus(s: Status): string {
  const out: string[] = [
    `regwatch status${s.account ? ` of account ${s.account}` : ""} at ${zonedStamp(new Date(s.generatedAt), s.timeZone)}; last complete day ${s.lastCompleteDay} (${s.timeZone})`,
    "",
    "Lists",
  ];
  if (s.lists.length === 0) out.push("  none seen yet: run `regwatch reconcile` or `regwatch sync`");
  const from = s.lists[0]?.calendar.from;
  if (from) out.push(`  ${"".padEnd(28)}${CALENDAR_WEEKS} weeks from Monday ${from}`);
  for (const l of s.lists) {
    const name = `${terminalSafe(l.listName)}${l.deleted ? " (deleted)" : ""}`.slice(0, 27).padEnd(28);
    out.push(`  ${name}${l.calendar.days}`);
    const coverage =
      l.firstCovered === null
        ? "nothing covered yet"
        : `covered ${l.firstCovered} .. ${l.lastCovered}, ${l.coveredDays} days, ${l.gapDays} gap days${
            l.behindDays ? `, ${l.behindDays} days behind` : ""
          }`;
    out.push(`    ${l.listKey}  ${coverage}`);
    for (const g of l.gaps.slice(0, 3)) out.push(`    gap ${g.start} .. ${g.end} (${g.days} days)`);
    if (l.gaps.length > 3) out.push(`    ... ${l.gaps.length - 3} more gaps`);
  }
  out.push("  # covered  . missing  - not yet due  (blank) before the list existed");
  if (s.schedule) out.push("", `Daemon schedule: ${describeResumeState(s.schedule, s.timeZone)}`);
  out.push("", "Last runs");
  if (s.runs.length === 0) out.push("  none");
  for (const r of s.runs) {
    const took = r.finishedAt
      ? `${Math.round((r.finishedAt.getTime() - r.startedAt.getTime()) / 1000)}s`
      : "";
    const note = r.error ? `  ${r.error.split("\n")[0]!.slice(0, 80)}` : runNote(r.stats);
    out.push(
      `  #${String(r.id).padEnd(5)} ${r.kind.padEnd(9)} ${r.trigger.padEnd(8)} ${r.status.padEnd(8)} ${zonedStamp(
        r.startedAt,
        s.timeZone,
        { seconds: true },
      )} ${took.padStart(6)}${note}`,
    );
  }
  const f = s.files.counts;
  out.push(
    "",
    `Change files: ${f.fetched} fetched, ${f.pending} pending, ${f.failed} failed, ${f.refused} refused, ${f.failedForGood ?? 0} failed for good`,
  );
  for (const o of s.files.open) {
    out.push(
      `  ${o.status} ${o.path} (attempts ${o.attempts}${o.lastError ? `: ${o.lastError.slice(0, 60)}` : ""})`,
    );
  }
  for (const o of s.files.failedForGood) {
    out.push(`  failed for good ${o.path} (attempts ${o.attempts}): ${(o.reason ?? "").slice(0, 120)}`);
  }
  if ((f.failedForGood ?? 0) > 0)
    out.push(
      "  (failed for good: the database refuses the body whatever the try; kept as bytes; `regwatch reparse` or `backfill --refetch` of its days tries again)",
    );
  const a = s.alertMessages;
  const oldest = a.pending > 0 ? ` (the oldest queued ${roughAge(a.oldestPendingSeconds)} ago)` : "";
  out.push(
    "",
    `Alert messages: ${a.sent} sent, ${a.pending} pending${oldest}, ${a.dead} dead${a.dead > 0 ? " (`regwatch alerts list` names them)" : ""}`,
  );
  const failing = failingText(s.alertDelivery, s.timeZone);
  if (failing) out.push(`  DELIVERY FAILING: ${failing}`, `  what to do: ${FAILING_NEXT}`);
  const recovered = failing ? undefined : recoveredText(s.alertDelivery, s.timeZone);
  if (recovered) out.push(`  ${recovered}`);
  const p = s.files.parse;
  out.push(
    `Parsed: ${p.parsed} parsed, ${p.unrecognised} unrecognised, ${p.unattributed ?? 0} unattributed, ${p.failed} failed, ${p.unparsed} not parsed yet (regwatch reparse retries)`,
  );
  for (const u of s.files.unreadable)
    out.push(`  ${u.parseStatus} ${u.path}: ${(u.parseError ?? "").slice(0, 80)}`);
  if (s.invalidItems.count > 0) {
    out.push(
      "",
      `Invalid items set aside: ${s.invalidItems.count} (their days stay uncovered until answered cleanly or \`regwatch coverage accept\`)`,
    );
    for (const i of s.invalidItems.items)
      out.push(
        `  list ${i.listKey} ${i.windowStart}..${i.windowEnd}: tax_id ${JSON.stringify(i.taxId)} ${i.reason}`,
      );
  }
  const disagreeing = Object.entries(s.intervalDisagreements);
  if (disagreeing.length > 0) {
    out.push("", "Answers for other days than asked (last sync; see REGWATCH_CHANGES_END_INCLUSIVE)");
    for (const [list, d] of disagreeing)
      out.push(
        `  list ${list}: ${d.wider} wider, ${d.narrower} narrower, ${d.elsewhere} elsewhere; e.g. ${d.example}`,
      );
  }
  out.push("", "Item outcomes (latest per item)");
  if (s.outcomes.length === 0) out.push("  none");
  for (const o of s.outcomes)
    out.push(`  ${o.op.padEnd(7)} ${o.code === null ? "accepted" : `refused ${o.code}`}: ${o.count}`);
  const usage = (rows: { api: string; requests: number; errors: number }[]) =>
    rows.length === 0 ? "none" : rows.map((u) => `${u.api} ${u.requests} (${u.errors} errors)`).join(", ");
  out.push(
    "",
    `API usage today (${s.usage.today.day}): ${usage(s.usage.today.byApi)}`,
    `API usage in ${s.usage.month.month}: ${usage(s.usage.month.byApi)}; search ${s.usage.search.used} of ${s.usage.search.quota} allowed`,
  );
  // Names, keys, paths and errors are the registry's text: each line is shown escaped, never obeyed.
  return `${out.map(terminalSafe).join("\n")}\n`;
}

function runNote(stats: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof stats.changesWritten === "number") parts.push(`${stats.changesWritten} changes`);
  if (typeof stats.filesFetched === "number") parts.push(`${stats.filesFetched} files`);
  if (typeof stats.windowsDone === "number") parts.push(`${stats.windowsDone} windows`);
  return parts.length > 0 ? `  ${parts.join(", ")}` : "";
}

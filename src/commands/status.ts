import type { Command } from "commander";
import type { Config } from "../config.ts";
import { describeResumeState, readResumeState } from "../daemon/resume-state.ts";
import { addDays, daysBetween, lastCompleteDay, localDateTime, maxDate, toEpochDay } from "../dates.ts";
import { outboxCounts } from "../db/alerts-outbox.ts";
import type { Sql } from "../db/connect.ts";
import { parseStatusCounts, unparsedExamples } from "../db/parse-status.ts";
import {
  coverageByList,
  type DayRange,
  fileCounts,
  openFiles,
  openInvalidItems,
  outcomeCounts,
  recentRuns,
  usageSummary,
} from "../db/status.ts";
import { EXIT } from "../errors.ts";
import { redactJson, redactSecrets } from "../secrets.ts";
import { runAction, withDatabase } from "./context.ts";

const CALENDAR_WEEKS = 8;
const RECENT_RUNS = 10;
const OPEN_FILES_SHOWN = 5;
const INVALID_ITEMS_SHOWN = 5;

export function registerStatus(program: Command): void {
  program
    .command("status")
    .description(
      "coverage per list, last runs, change files, item outcomes and API usage (reads the database only)",
    )
    .option("--json", "print the status as JSON")
    .addHelpText(
      "after",
      [
        "",
        `The calendar shows the last ${CALENDAR_WEEKS} weeks, Monday first, one character a day:`,
        "  # covered   . missing (due, not covered)   - not yet due   (blank) before the list existed",
      ].join("\n"),
    )
    .action((opts: { json?: boolean }) =>
      runAction((ctx) =>
        withDatabase(ctx, async (db) => {
          // Run errors and file errors hold server text, which may echo a key: scrubbed before printing.
          const status = redactJson(await readStatus(db.sql, ctx.config));
          process.stdout.write(
            redactSecrets(opts.json ? `${JSON.stringify(status, null, 2)}\n` : formatStatus(status)),
          );
          return EXIT.ok;
        }),
      ),
    );
}

export interface ListStatus {
  listKey: string;
  listName: string;
  createdAt: string | null;
  deleted: boolean;
  firstCovered: string | null;
  lastCovered: string | null;
  coveredDays: number;
  /** Uncovered days between the first and the last covered day. */
  gapDays: number;
  gaps: Array<DayRange & { days: number }>;
  /** Days from the last covered day to the last complete day. */
  behindDays: number | null;
  calendar: { from: string; days: string };
}

export type Status = Awaited<ReturnType<typeof readStatus>>;

export async function readStatus(
  sql: Sql,
  config: Pick<Config, "tz" | "searchMonthlyQuota"> & Partial<Pick<Config, "registryTz" | "schedule">>,
  now = new Date(),
) {
  const local = localDateTime(now, config.tz);
  // Completeness follows the registry's 07:00 load in its own zone.
  const complete = lastCompleteDay(now, config.registryTz ?? config.tz);
  const [lists, runs, files, open, outcomes, usage, alertMessages, parse, unreadable, invalid] =
    await Promise.all([
      coverageByList(sql),
      recentRuns(sql, RECENT_RUNS),
      fileCounts(sql),
      openFiles(sql, OPEN_FILES_SHOWN),
      outcomeCounts(sql),
      usageSummary(sql, local.date, local.date.slice(0, 7)),
      outboxCounts(sql),
      parseStatusCounts(sql),
      unparsedExamples(sql, OPEN_FILES_SHOWN),
      openInvalidItems(sql, INVALID_ITEMS_SHOWN),
    ]);
  const searchThisMonth = usage.month.find((u) => u.api === "search")?.requests ?? 0;
  // The daemon's view of the latest scheduled run, from the runs table (no daemon needed).
  const schedule = config.schedule
    ? await readResumeState(sql, { schedule: config.schedule, tz: config.tz }, now)
    : null;
  return {
    generatedAt: now.toISOString(),
    timeZone: config.tz,
    today: local.date,
    lastCompleteDay: complete,
    lists: lists.map((l) => listStatus(l, complete, local.date)),
    schedule,
    runs,
    files: { counts: files, open, parse, unreadable },
    outcomes,
    alertMessages,
    invalidItems: invalid,
    intervalDisagreements: latestDisagreements(runs),
    usage: {
      today: { day: local.date, byApi: usage.today },
      month: { month: local.date.slice(0, 7), byApi: usage.month },
      search: { used: searchThisMonth, quota: config.searchMonthlyQuota },
    },
  };
}

export function listStatus(
  list: {
    listKey: string;
    listName: string;
    createdAt: string | null;
    deleted: boolean;
    intervals: DayRange[];
  },
  lastComplete: string,
  today: string,
): ListStatus {
  const merged = mergeRanges(list.intervals);
  const gaps = gapsBetween(merged).map((g) => ({ ...g, days: daysBetween(g.start, g.end) + 1 }));
  const first = merged[0]?.start ?? null;
  const last = merged.at(-1)?.end ?? null;
  return {
    listKey: list.listKey,
    listName: list.listName,
    createdAt: list.createdAt,
    deleted: list.deleted,
    firstCovered: first,
    lastCovered: last,
    coveredDays: merged.reduce((n, r) => n + daysBetween(r.start, r.end) + 1, 0),
    gapDays: gaps.reduce((n, g) => n + g.days, 0),
    gaps,
    behindDays: last === null ? null : Math.max(0, daysBetween(last, lastComplete)),
    calendar: calendar(merged, { createdAt: list.createdAt, lastComplete, today, weeks: CALENDAR_WEEKS }),
  };
}

/** Overlapping or touching ranges joined, in order. */
export function mergeRanges(ranges: readonly DayRange[]): DayRange[] {
  const sorted = [...ranges].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const merged: DayRange[] = [];
  for (const r of sorted) {
    const previous = merged.at(-1);
    if (previous && r.start <= addDays(previous.end, 1)) previous.end = maxDate(previous.end, r.end);
    else merged.push({ ...r });
  }
  return merged;
}

/** The holes between merged ranges. */
export function gapsBetween(merged: readonly DayRange[]): DayRange[] {
  const gaps: DayRange[] = [];
  for (let i = 1; i < merged.length; i++) {
    gaps.push({ start: addDays(merged[i - 1]!.end, 1), end: addDays(merged[i]!.start, -1) });
  }
  return gaps;
}

/**
 * One character a day for `weeks` weeks ending with the week of `today`, Monday first, weeks
 * separated by a space: `#` covered, `.` due but missing, `-` not yet due, blank before the list.
 */
export function calendar(
  merged: readonly DayRange[],
  options: { createdAt: string | null; lastComplete: string; today: string; weeks: number },
): { from: string; days: string } {
  // 1970-01-01 was a Thursday: epoch day + 3 modulo 7 counts days since Monday.
  const sinceMonday = (((toEpochDay(options.today) + 3) % 7) + 7) % 7;
  const from = addDays(options.today, -sinceMonday - (options.weeks - 1) * 7);
  let days = "";
  for (let i = 0; i < options.weeks * 7; i++) {
    const day = addDays(from, i);
    if (i > 0 && i % 7 === 0) days += " ";
    if (merged.some((r) => r.start <= day && day <= r.end)) days += "#";
    else if (day > options.lastComplete) days += "-";
    else if (options.createdAt !== null && day < options.createdAt) days += " ";
    else days += ".";
  }
  return { from, days };
}

export function formatStatus(s: Status): string {
  const out: string[] = [
    `regwatch status at ${s.generatedAt.slice(0, 16).replace("T", " ")} UTC; last complete day ${s.lastCompleteDay} (${s.timeZone})`,
    "",
    "Lists",
  ];
  if (s.lists.length === 0) out.push("  none seen yet: run `regwatch reconcile` or `regwatch sync`");
  const from = s.lists[0]?.calendar.from;
  if (from) out.push(`  ${"".padEnd(28)}${CALENDAR_WEEKS} weeks from Monday ${from}`);
  for (const l of s.lists) {
    const name = `${l.listName}${l.deleted ? " (deleted)" : ""}`.slice(0, 27).padEnd(28);
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
  if (s.schedule) out.push("", `Daemon schedule: ${describeResumeState(s.schedule)}`);
  out.push("", "Last runs");
  if (s.runs.length === 0) out.push("  none");
  for (const r of s.runs) {
    const took = r.finishedAt
      ? `${Math.round((r.finishedAt.getTime() - r.startedAt.getTime()) / 1000)}s`
      : "";
    const note = r.error ? `  ${r.error.split("\n")[0]!.slice(0, 80)}` : runNote(r.stats);
    out.push(
      `  #${String(r.id).padEnd(5)} ${r.kind.padEnd(9)} ${r.trigger.padEnd(8)} ${r.status.padEnd(8)} ${r.startedAt
        .toISOString()
        .slice(0, 19)
        .replace("T", " ")} ${took.padStart(6)}${note}`,
    );
  }
  const f = s.files.counts;
  out.push(
    "",
    `Change files: ${f.fetched} fetched, ${f.pending} pending, ${f.failed} failed, ${f.refused} refused`,
  );
  for (const o of s.files.open) {
    out.push(
      `  ${o.status} ${o.path} (attempts ${o.attempts}${o.lastError ? `: ${o.lastError.slice(0, 60)}` : ""})`,
    );
  }
  const a = s.alertMessages;
  out.push(
    "",
    `Alert messages: ${a.sent} sent, ${a.pending} pending, ${a.dead} dead${a.dead > 0 ? " (`regwatch alerts list` names them)" : ""}`,
  );
  const p = s.files.parse;
  out.push(
    `Parsed: ${p.parsed} parsed, ${p.unrecognised} unrecognised, ${p.failed} failed, ${p.unparsed} not parsed yet (regwatch reparse retries)`,
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
  return `${out.join("\n")}\n`;
}

/** Per list, the answers of the newest sync or backfill whose interval differed from what was asked. */
function latestDisagreements(runs: readonly { kind: string; stats: Record<string, unknown> }[]) {
  const latest = runs.find(
    (r) => (r.kind === "sync" || r.kind === "backfill") && r.stats.intervalDisagreements,
  );
  return (latest?.stats.intervalDisagreements ?? {}) as Record<
    string,
    { wider: number; narrower: number; elsewhere: number; example: string }
  >;
}

function runNote(stats: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof stats.changesWritten === "number") parts.push(`${stats.changesWritten} changes`);
  if (typeof stats.filesFetched === "number") parts.push(`${stats.filesFetched} files`);
  if (typeof stats.windowsDone === "number") parts.push(`${stats.windowsDone} windows`);
  return parts.length > 0 ? `  ${parts.join(", ")}` : "";
}

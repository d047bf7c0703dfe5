/**
 * The reconcile report as a person reads it: per list a `+N -M` diff line, then the items (cut
 * after a few, so a 2,000-item list stays readable), then what applying did and what was refused.
 * Names come from tables other systems write and keys from the registry, so every line is shown
 * escaped (terminalSafe): a newline in a list name cannot forge a line of the report. The JSON
 * report keeps them exact.
 */
import { terminalSafe } from "../formats/terminal-text.ts";
import type { ListResult, OpCounts } from "./apply.ts";
import type { ListPlan, LocalRefusal } from "./plan.ts";
import type { ReconcileReport, ReconcileStatus } from "./reconcile.ts";

export interface FormatOptions {
  /** Items shown per list and kind before "… and N more". */
  maxItems?: number;
  /** List the problems in the report (default); false when the caller prints them elsewhere. */
  problems?: boolean;
}

const HEADLINE: Record<ReconcileStatus, (dryRun: boolean) => string> = {
  "in-sync": (dryRun) => (dryRun ? "dry run: in sync, nothing to change" : "in sync, nothing to change"),
  pending: () => "dry run: changes pending (run without --dry-run to apply them)",
  applied: () => "applied",
  partial: (dryRun) =>
    dryRun
      ? "dry run: part of the desired state cannot be carried out (see problems)"
      : "partly applied: some of the desired state was not carried out (see problems); the next run retries what is left",
  refused: (dryRun) => (dryRun ? "dry run: the plan would be refused" : "refused: nothing was changed"),
  failed: () => "failed",
};

export function formatReport(report: ReconcileReport, options: FormatOptions = {}): string {
  const maxItems = options.maxItems ?? 10;
  const lines = [`reconcile run ${report.runId}: ${HEADLINE[report.status](report.dryRun)}`];
  const results = new Map(report.results.map((r) => [r.listName, r]));
  const adoptions = new Map(report.adoptions.map((a) => [a.listName, a.taxIds]));
  for (const list of report.plan?.lists ?? []) {
    const adopted = adoptionLines(adoptions.get(list.listName) ?? [], report.dryRun, maxItems);
    lines.push(...formatList(list, results.get(list.listName), adopted, maxItems));
  }
  for (const r of report.refusedLists) lines.push(`x list "${r.listName}"  refused: its name ${r.problem}`);
  for (const d of report.plan?.drops?.delete ?? []) {
    lines.push(`- list "${d.listName}" (${d.listKey})  dropped: delete the list and its ${d.items} item(s)`);
    const done = report.deletions.find((r) => r.listKey === d.listKey);
    if (done) lines.push(`    => ${done.deleted ? "list deleted" : "not deleted (see problems)"}`);
  }
  if (report.plan && report.plan.notes.length > 0) {
    lines.push("notes:", ...report.plan.notes.map((n) => `  ${n}`));
  }
  if (report.problems.length > 0 && options.problems !== false) {
    lines.push(
      report.status === "refused" ? "refused because:" : "problems:",
      ...report.problems.map((p) => `  ${p}`),
    );
  }
  if (report.plan) {
    const t = report.plan.totals;
    const local = [
      t.invalid > 0 ? `${t.invalid} invalid` : "",
      t.overCapacity > 0 ? `${t.overCapacity} over capacity` : "",
      t.heldBack > 0 ? `${t.heldBack} held back` : "",
    ].filter(Boolean);
    const deleting = report.plan.drops?.delete.length ?? 0;
    const adopted = report.adoptions.reduce((n, a) => n + a.taxIds.length, 0);
    lines.push(
      `total: ${t.lists} list(s), ${t.create} to create, +${t.add} -${t.remove}` +
        `${adopted > 0 ? `, ${adopted} ${report.dryRun ? "to adopt" : "adopted"}` : ""}` +
        `${t.notRequested > 0 ? `, ${t.notRequested} not requested (kept)` : ""}` +
        `${deleting > 0 ? `, ${deleting} dropped list(s) to delete` : ""}` +
        `${local.length > 0 ? ` (not sent: ${local.join(", ")})` : ""}; ` +
        `requests: ${report.requests.reads} read, ${report.requests.writes} write` +
        `${report.requests.failed > 0 ? `, ${report.requests.failed} failed` : ""}`,
    );
  }
  return `${lines.map(terminalSafe).join("\n")}\n`;
}

function adoptionLines(adopted: readonly string[], dryRun: boolean, maxItems: number): string[] {
  if (adopted.length === 0) return [];
  const head = dryRun
    ? `    ^ would adopt ${adopted.length} item(s) already on the remote list into desired_items (nothing removed)`
    : `    ^ adopted ${adopted.length} item(s) already on the remote list into desired_items (source adopted; nothing removed)`;
  return [head, `      ${cut(adopted, maxItems)}`];
}

function formatList(
  list: ListPlan,
  result: ListResult | undefined,
  adopted: readonly string[],
  maxItems: number,
): string[] {
  const changes = list.add.length + list.remove.length;
  const marker = list.listKey === null ? "+" : changes > 0 ? "~" : "=";
  const where =
    list.listKey === null ? (result?.listKey ? `created ${result.listKey}` : "to be created") : list.listKey;
  const flags = list.prune ? "" : ", prune off";
  const diff =
    changes > 0 || list.listKey === null ? `+${list.add.length} -${list.remove.length}` : "in sync";
  const lines = [
    `${marker} list "${list.listName}" (${where}${flags})  ${diff}, ${list.remoteCount} remote item(s)`,
  ];
  lines.push(...adopted);
  lines.push(...itemLines("+", list.add, maxItems, "to add"));
  lines.push(...itemLines("-", list.remove, maxItems, "to remove"));
  if (list.keptUndesired > 0) lines.push(`    = ${list.keptUndesired} undesired item(s) kept (prune off)`);
  if (list.notRequested.length > 0) {
    lines.push(
      `    ? ${list.notRequested.length} item(s) regwatch never asked for (added at the registry): kept, not removed: ` +
        cut(list.notRequested, maxItems),
    );
  }
  if (list.keptForRefusedRows.length > 0) {
    lines.push(
      `    ? ${list.keptForRefusedRows.length} item(s) kept for refused desired rows that seem to mean them: ` +
        cut(list.keptForRefusedRows, maxItems),
    );
  }
  lines.push(...refusalLines(list.invalid, "invalid tax id(s), recorded as 422, not sent", maxItems));
  if (list.overCapacity.length > 0) {
    // One message serves them all: the room left is the same for every item beyond it.
    const ids = cut(
      list.overCapacity.map((r) => r.taxId),
      maxItems,
    );
    lines.push(
      `    ! ${list.overCapacity.length} recorded as 429, ${list.overCapacity[0]!.message}`,
      `      ${ids}`,
    );
  }
  if (list.heldBack.length > 0) {
    lines.push(
      `    ! ${list.heldBack.length} refused by the registry recently (404/422), not sent again yet: ` +
        `${cut(list.heldBack, maxItems)} (--retry-refused sends them)`,
    );
  }
  if (result) lines.push(`    => ${describeResult(result)}`);
  return lines;
}

function itemLines(sign: string, ids: readonly string[], maxItems: number, what: string): string[] {
  const shown = ids.slice(0, maxItems).map((id) => `    ${sign} ${id}`);
  if (ids.length > maxItems) shown.push(`    … and ${ids.length - maxItems} more ${what}`);
  return shown;
}

function refusalLines(refusals: readonly LocalRefusal[], what: string, maxItems: number): string[] {
  if (refusals.length === 0) return [];
  const lines = [`    ! ${refusals.length} ${what}`];
  for (const r of refusals.slice(0, Math.min(maxItems, 5))) lines.push(`      ${r.taxId}: ${r.message}`);
  if (refusals.length > Math.min(maxItems, 5))
    lines.push(`      … and ${refusals.length - Math.min(maxItems, 5)} more`);
  return lines;
}

function describeResult(result: ListResult): string {
  const parts: string[] = [];
  if (result.created) parts.push("list created");
  parts.push(
    ...describeOp("added", result.add, "already there"),
    ...describeOp("removed", result.remove, "already gone"),
  );
  const codes = Object.entries(result.refusedCodes).map(([code, n]) => `${n} with ${code}`);
  if (codes.length > 0) parts.push(`refused: ${codes.join(", ")} (see item_outcomes)`);
  if (result.requests.failed > 0) parts.push(`${result.requests.failed} request(s) failed`);
  return parts.length > 0 ? parts.join("; ") : "nothing sent";
}

/** "added 12, 3 already there, 1 refused", or nothing when no item of this op was sent. */
function describeOp(verb: string, counts: OpCounts, already: string): string[] {
  if (counts.done + counts.already + counts.refused + counts.unanswered === 0) return [];
  const extras = [
    counts.already > 0 ? `${counts.already} ${already}` : "",
    counts.refused > 0 ? `${counts.refused} refused` : "",
    counts.unanswered > 0 ? `${counts.unanswered} failed` : "",
  ].filter(Boolean);
  return [[`${verb} ${counts.done}`, ...extras].join(", ")];
}

function cut(ids: readonly string[], max: number): string {
  return ids.length > max ? `${ids.slice(0, max).join(", ")}, … (${ids.length - max} more)` : ids.join(", ");
}

/** The report for --json: plan totals and lists, results, problems; item arrays in full. */
export function reportJson(report: ReconcileReport): string {
  const { lists: _lists, failure: _failure, ...shown } = report;
  return `${JSON.stringify(shown, null, 2)}\n`;
}

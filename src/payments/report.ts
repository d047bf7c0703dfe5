/**
 * How a checked batch is shown (pure): a table for people (worst verdicts first, each held row's
 * detail and next step after it, totals at the end), JSON and CSV for pipelines (file order).
 * Text that came from the registry or a server is scrubbed of secrets before it is printed, and
 * shown with its control characters escaped on a terminal.
 */

import { terminalSafe } from "../feed/terminal-text.ts";
import { formatTable } from "../search/format.ts";
import { redactSecrets } from "../secrets.ts";
import { type CheckedRow, PASSING, severity, VERDICTS, type Verdict } from "./verdicts.ts";

export interface BatchReport {
  rows: CheckedRow[];
  holdDays: number;
  today: string;
  online: { asked: number; notChecked: number } | null;
  batchId: string | null;
}

export function isFlagged(rows: readonly CheckedRow[]): boolean {
  return rows.some((r) => !PASSING.has(r.verdict));
}

function counts(rows: readonly CheckedRow[]): Partial<Record<Verdict, number>> {
  const out: Partial<Record<Verdict, number>> = {};
  for (const v of VERDICTS) {
    const n = rows.filter((r) => r.verdict === v).length;
    if (n > 0) out[v] = n;
  }
  return out;
}

/** Sum of amounts per currency, exact (scaled integers), since money must not round. */
function totals(rows: readonly CheckedRow[]): Array<{ currency: string; amount: string; rows: number }> {
  const byCurrency = new Map<string, { units: bigint; scale: number; rows: number }>();
  for (const r of rows) {
    if (r.amount === null) continue;
    const currency = r.currency ?? "";
    const [whole, fraction = ""] = r.amount.replace("-", "").split(".");
    const entry = byCurrency.get(currency) ?? { units: 0n, scale: 0, rows: 0 };
    const scale = Math.max(entry.scale, fraction.length);
    const sign = r.amount.startsWith("-") ? -1n : 1n;
    const value = BigInt(`${whole}${fraction.padEnd(scale, "0")}`) * sign;
    entry.units = entry.units * 10n ** BigInt(scale - entry.scale) + value;
    entry.scale = scale;
    entry.rows++;
    byCurrency.set(currency, entry);
  }
  return [...byCurrency.entries()].sort().map(([currency, e]) => {
    const negative = e.units < 0n;
    const digits = (negative ? -e.units : e.units).toString().padStart(e.scale + 1, "0");
    const amount = e.scale === 0 ? digits : `${digits.slice(0, -e.scale)}.${digits.slice(-e.scale)}`;
    return { currency, amount: negative ? `-${amount}` : amount, rows: e.rows };
  });
}

function jsonRow(r: CheckedRow): Record<string, unknown> {
  return {
    line: r.line,
    verdict: r.verdict,
    detail: redactSecrets(r.detail),
    next_step: r.nextStep,
    tax_id: r.taxId,
    tax_base: r.taxBase,
    bank_account: r.bankAccount,
    account: r.account,
    registry_name: r.registryName,
    name: r.name,
    amount: r.amount,
    currency: r.currency,
    reference: r.reference,
  };
}

export function formatJson(report: BatchReport): string {
  return `${JSON.stringify(
    {
      checked_on: report.today,
      hold_days: report.holdDays,
      flagged: isFlagged(report.rows),
      counts: counts(report.rows),
      totals: totals(report.rows),
      online: report.online,
      batch_id: report.batchId,
      rows: report.rows.map(jsonRow),
    },
    null,
    2,
  )}\n`;
}

const CSV_COLUMNS = [
  "line",
  "verdict",
  "detail",
  "tax_id",
  "bank_account",
  "account",
  "registry_name",
  "name",
  "amount",
  "currency",
  "reference",
  // Last, so the columns pipelines read by position before it was added keep their places.
  "next_step",
] as const;

function csvField(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function formatCsv(report: BatchReport): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const r of report.rows) {
    const row = jsonRow(r);
    lines.push(CSV_COLUMNS.map((c) => csvField(row[c])).join(","));
  }
  return `${lines.join("\n")}\n`;
}

export function formatText(report: BatchReport): string {
  const sorted = [...report.rows].sort(
    (a, b) => severity(a.verdict) - severity(b.verdict) || a.line - b.line,
  );
  // Details can be long (a holder's name, a server's message): they follow the table in full.
  const table = formatTable(
    ["VERDICT", "LINE", "TAX ID", "NAME", "ACCOUNT", "AMOUNT", "REFERENCE"],
    sorted.map((r) => [
      r.verdict,
      String(r.line),
      r.taxId ?? r.taxBase ?? "",
      r.registryName ?? r.name ?? "",
      r.account ?? r.bankAccount,
      r.amount === null ? "" : `${r.amount}${r.currency ? ` ${r.currency}` : ""}`,
      r.reference ?? "",
    ]),
  );
  const details = sorted
    .filter((r) => r.detail !== "" || r.nextStep !== null)
    .flatMap((r) => [
      `line ${r.line}: ${terminalSafe(redactSecrets(r.detail || r.verdict))}`,
      ...(r.nextStep ? [`  next step: ${terminalSafe(redactSecrets(r.nextStep))}`] : []),
    ]);
  const summary = Object.entries(counts(report.rows)).map(([v, n]) => `${n} ${v}`);
  const flagged = report.rows.filter((r) => !PASSING.has(r.verdict));
  const lines = [
    table,
    "",
    ...details,
    ...(details.length > 0 ? [""] : []),
    `${report.rows.length} row(s): ${summary.join(", ")}`,
  ];
  for (const t of totals(report.rows)) {
    const held = totals(flagged).find((f) => f.currency === t.currency);
    const cur = t.currency || "(no currency)";
    lines.push(`total ${t.amount} ${cur} in ${t.rows} row(s)${held ? `; held: ${held.amount} ${cur}` : ""}`);
  }
  if (report.online) {
    lines.push(
      `online: ${report.online.asked} search request(s)` +
        (report.online.notChecked > 0 ? `, ${report.online.notChecked} account(s) not checked` : ""),
    );
  }
  if (report.batchId) lines.push(`recorded as batch ${report.batchId}`);
  lines.push(
    isFlagged(report.rows)
      ? `HOLD: ${flagged.length} payment(s) flagged (account changes within ${report.holdDays} days count)`
      : "every payment passed",
  );
  return `${lines.join("\n")}\n`;
}

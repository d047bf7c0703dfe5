/**
 * The doctor's report: one result per check, how it prints (one line each, registry text made
 * safe for a terminal, secrets scrubbed), and the one decision of the exit status.
 */
import { EXIT, type ExitCode } from "../errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import { redactJson, redactSecrets } from "../secrets.ts";

export type CheckStatus = "ok" | "warn" | "fail";

export interface CheckResult {
  /** Stable name of the check, e.g. "database", "watch key", "file origin https://files.example". */
  check: string;
  status: CheckStatus;
  /** What was found, in one sentence or two. */
  message: string;
  /** What to do about a warning or a failure; absent when there is nothing to do. */
  next?: string;
}

/** The check named "configuration": its failure is a configuration error (exit 78). */
export const CONFIGURATION = "configuration";

export function ok(check: string, message: string): CheckResult {
  return { check, status: "ok", message };
}

export function warn(check: string, message: string, next: string): CheckResult {
  return { check, status: "warn", message, next };
}

export function fail(check: string, message: string, next: string): CheckResult {
  return { check, status: "fail", message, next };
}

/** 78 when the configuration failed, else 1 when any check failed, else 0 (warnings allowed). */
export function doctorExitCode(results: readonly CheckResult[]): ExitCode {
  if (results.some((r) => r.check === CONFIGURATION && r.status === "fail")) return EXIT.config;
  return results.some((r) => r.status === "fail") ? EXIT.failed : EXIT.ok;
}

export interface DoctorReport {
  generatedAt: string;
  status: CheckStatus;
  exitCode: ExitCode;
  checks: CheckResult[];
}

export function buildReport(results: CheckResult[], now: Date): DoctorReport {
  const status: CheckStatus = results.some((r) => r.status === "fail")
    ? "fail"
    : results.some((r) => r.status === "warn")
      ? "warn"
      : "ok";
  return { generatedAt: now.toISOString(), status, exitCode: doctorExitCode(results), checks: results };
}

/** The report as JSON, every string scrubbed of secrets (text is kept exact otherwise). */
export function formatJson(report: DoctorReport | Record<string, unknown>): string {
  return `${JSON.stringify(redactJson(report), null, 2)}\n`;
}

const LABEL: Record<CheckStatus, string> = { ok: "ok  ", warn: "WARN", fail: "FAIL" };

/**
 * One line per check: its status, its name, what was found and, for a warning or a failure, what
 * to do. Messages may quote the registry or a mail server, so each line is scrubbed of secrets
 * and its control characters are shown as escapes (no forged line, no terminal sequence).
 */
export function formatText(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((r) => r.check.length), 10);
  const lines = report.checks.map((r) => {
    const next = r.next ? ` → ${r.next}` : "";
    return `${LABEL[r.status]}  ${r.check.padEnd(width)}  ${r.message}${next}`;
  });
  const counts = (["ok", "warn", "fail"] as const).map(
    (s) => `${report.checks.filter((r) => r.status === s).length} ${s}`,
  );
  const verdict =
    report.exitCode === EXIT.config
      ? "the configuration is invalid: fix the variables named above (exit 78)"
      : report.status === "fail"
        ? "something will fail: fix the lines marked FAIL (exit 1)"
        : report.status === "warn"
          ? "ready, with warnings worth reading (exit 0)"
          : "ready for the first run (exit 0)";
  const safe = lines.map((line) => terminalSafe(redactSecrets(line)));
  return `${safe.join("\n")}\n\n${counts.join(", ")}: ${verdict}\n`;
}

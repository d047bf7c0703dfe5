/**
 * Error families of regwatch. Each carries a stable `code`; callers decide retries and exit
 * statuses from the code or the class, never from message text.
 */

/** Process exit statuses shared by every command (docs/contracts.md, "Exit statuses"). */
export const EXIT = {
  ok: 0,
  failed: 1,
  pending: 2,
  partial: 3,
  usage: 64,
  /** A command ended without finishing its work, for no reason regwatch knows (a bug of its own). */
  internal: 70,
  locked: 75,
  config: 78,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A finished job as the exit status sees it: its status (sync's or reconcile's) and what ended it. */
export interface Outcome {
  status: "ok" | "partial" | "failed" | "in-sync" | "applied" | "pending" | "refused";
  /** Set when the job ended on an error (the key refused, the database lost): its family decides. */
  error?: Error;
}

const EXIT_OF_STATUS: Record<Outcome["status"], ExitCode> = {
  ok: EXIT.ok,
  "in-sync": EXIT.ok,
  applied: EXIT.ok,
  pending: EXIT.pending,
  partial: EXIT.partial,
  refused: EXIT.failed,
  failed: EXIT.failed,
};

/** The one mapping of outcomes and errors to exit statuses (docs/contracts.md, "Exit statuses"). */
export function exitCodeOf(outcome: Outcome | Error): ExitCode {
  if (outcome instanceof Error) return outcome instanceof RegwatchError ? outcome.exitCode : EXIT.failed;
  if (outcome.error) return exitCodeOf(outcome.error);
  return EXIT_OF_STATUS[outcome.status];
}

export class RegwatchError extends Error {
  readonly code: string;
  readonly exitCode: ExitCode;

  constructor(code: string, message: string, options?: { cause?: unknown; exitCode?: ExitCode }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = options?.exitCode ?? EXIT.failed;
  }
}

/** A command-line argument is wrong; exit 64. */
export class UsageError extends RegwatchError {
  constructor(message: string) {
    super("USAGE", message, { exitCode: EXIT.usage });
  }
}

/** One or more environment variables are wrong; every problem is listed; exit 78. */
export class ConfigError extends RegwatchError {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super("CONFIG", `invalid configuration:\n  ${problems.join("\n  ")}`, { exitCode: EXIT.config });
    this.problems = problems;
  }
}

/** Another process holds the run lock; exit 75. */
export class LockHeldError extends RegwatchError {
  constructor(message: string) {
    super("LOCKED", message, { exitCode: EXIT.locked });
  }
}

/** Input data (a desired row, a CSV line, a server response) is invalid. */
export class InputError extends RegwatchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("INPUT", message, options);
  }
}

/** Turns anything thrown into an Error, so logging and reporting have one shape to handle. */
export function coerceError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  if (typeof thrown === "string") return new Error(thrown);
  try {
    return new Error(`non-error thrown: ${JSON.stringify(thrown)}`);
  } catch {
    return new Error(`non-error thrown: ${String(thrown)}`);
  }
}

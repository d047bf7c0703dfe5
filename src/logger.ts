import { type Logger, pino } from "pino";
import { redactSecrets } from "./secrets.ts";

export type { Logger } from "pino";

const REDACTED = "[redacted]";

export interface LoggerOptions {
  level?: string;
  /** Values that must never appear in a log line (API keys). */
  secrets?: readonly (string | undefined)[];
  /** 1 = stdout (the daemon), 2 = stderr (CLI commands, so their report on stdout stays clean). */
  fd?: 1 | 2;
  /** Where lines go instead of `fd`: a command's log router, or a test's capture. */
  stream?: LineStream;
}

/** Anything that takes whole log lines (each ending in a newline). */
export interface LineStream {
  write(line: string): unknown;
}

/**
 * Structured JSON logger. Secrets are removed twice: by field path (headers, config objects) and
 * by value from the serialized line, so a key inside a URL or an error message is caught too.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = (options.secrets ?? []).filter((s): s is string => typeof s === "string" && s.length >= 4);
  return pino(
    {
      level: options.level ?? "info",
      base: { service: "regwatch" },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: [
          "apiKey",
          "searchApiKey",
          "*.apiKey",
          "*.searchApiKey",
          'headers["x-api-key"]',
          '*.headers["x-api-key"]',
        ],
        censor: REDACTED,
      },
      hooks: {
        streamWrite: (line) => redactSecrets(line, secrets),
      },
    },
    options.stream ?? pino.destination({ fd: options.fd ?? 1, sync: true }),
  );
}

/** A logger that drops everything, for tests and library use. */
export const silentLogger: Logger = pino({ level: "silent" });

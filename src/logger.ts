import { createRequire } from "node:module";
import type { Logger, pino as pinoFactory } from "pino";
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
 *
 * pino is loaded and the logger built on first use: a short command that never logs (`status`,
 * `--help`) does not pay for loading it.
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const secrets = (options.secrets ?? []).filter((s): s is string => typeof s === "string" && s.length >= 4);
  return onFirstUse(() => {
    const pino = loadPino();
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
  });
}

/** A logger that drops everything, for tests and library use. */
export const silentLogger: Logger = onFirstUse(() => loadPino()({ level: "silent" }));

let pinoFactoryLoaded: typeof pinoFactory | undefined;

/** pino is CommonJS: required synchronously, so the first log call can build the logger at once. */
function loadPino(): typeof pinoFactory {
  pinoFactoryLoaded ??= (createRequire(import.meta.url)("pino") as { pino: typeof pinoFactory }).pino;
  return pinoFactoryLoaded;
}

/**
 * A logger that builds the real one when it is first touched and hands every property to it.
 * Methods are bound to the real logger, so `child`, `level` changes and log calls act on it
 * exactly as on a logger built eagerly.
 */
function onFirstUse(build: () => Logger): Logger {
  let real: Logger | undefined;
  const target = () => {
    real ??= build();
    return real;
  };
  return new Proxy({} as Logger, {
    get(_, key) {
      const logger = target();
      const value: unknown = Reflect.get(logger, key, logger);
      return typeof value === "function" ? value.bind(logger) : value;
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
  });
}

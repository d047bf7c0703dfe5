/**
 * Hand-written checks of the variables `regwatch status` reads (config-schema.ts `checked`): their
 * schemas run these same checks, and a status whose variables are all of these builds no schema.
 */
import { nodeCron } from "./cron.ts";
import { tableHolds } from "./zone-clock.ts";
import { ZONE_TABLE } from "./zone-table.ts";

/** What a hand-written check makes of a value: the value it parses to, or what is wrong with it. */
export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

export const TIME_ZONE_PROBLEM = "is not a known IANA time zone (e.g. Europe/Budapest)";
export const CRON_PROBLEM = "is not a valid cron expression";
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const DATABASE_URL_SHAPE = /^postgres(ql)?:\/\//;
export const checkDatabaseUrl = (s: string): Checked<string> =>
  DATABASE_URL_SHAPE.test(s) ? { ok: true, value: s } : { ok: false, message: "must be a postgres:// URL" };
export const checkTimeZone = (s: string): Checked<string> =>
  isKnownTimeZone(s) ? { ok: true, value: s } : { ok: false, message: TIME_ZONE_PROBLEM };
export const checkCron = (s: string): Checked<string> =>
  nodeCron().validate(s) ? { ok: true, value: s } : { ok: false, message: CRON_PROBLEM };
export const checkLogLevel = (s: string): Checked<LogLevel> =>
  (LOG_LEVELS as readonly string[]).includes(s)
    ? { ok: true, value: s as LogLevel }
    : {
        ok: false,
        // zod's wording for an enum, which this variable was refused with before it was checked by hand.
        message: `Invalid option: expected one of ${LOG_LEVELS.map((l) => JSON.stringify(l)).join("|")}`,
      };
export const checkWholeNumber = (s: string): Checked<number> => {
  if (!/^\d+$/.test(s)) return { ok: false, message: "must be a whole number" };
  const value = Number(s);
  // Hundreds of digits: zod's number check refused the Infinity that Number gives.
  return Number.isFinite(value)
    ? { ok: true, value }
    : { ok: false, message: "Invalid input: expected number, received Infinity" };
};

export function isKnownTimeZone(zone: string): boolean {
  // A zone the status file's table holds is one this Node's Intl took when the build asked it
  // (src/zone-clock.ts): known without building a formatter, the first of which costs ~10 ms.
  if (tableHolds(ZONE_TABLE, zone)) return true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Calendar dates as `YYYY-MM-DD` strings. Arithmetic is done on UTC midnights, so a day is always
 * 86,400,000 ms and daylight-saving shifts cannot move a date.
 */
import { checkedZonedTime, tableZoneName } from "./zone-clock.ts";
import { ZONE_TABLE } from "./zone-table.ts";

const DAY_MS = 86_400_000;

/** Inclusive days from `start` to `end` (both YYYY-MM-DD). */
export interface Interval {
  start: string;
  end: string;
}
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written as YYYY-MM-DD. */
export function isValidDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

export function toEpochDay(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) / DAY_MS;
}

export function fromEpochDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** The last addDays answer: a payment check asks for the start of its hold period for every row. */
let lastAdded = { date: "", days: 0, result: "" };

export function addDays(date: string, days: number): string {
  if (date === lastAdded.date && days === lastAdded.days) return lastAdded.result;
  const result = fromEpochDay(toEpochDay(date) + days);
  lastAdded = { date, days, result };
  return result;
}

/** Days from `a` to `b` (positive when b is later). */
export function daysBetween(a: string, b: string): number {
  return toEpochDay(b) - toEpochDay(a);
}

export function minDate(a: string, b: string): string {
  return a <= b ? a : b;
}

export function maxDate(a: string, b: string): string {
  return a >= b ? a : b;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock date and time of an instant in a time zone. */
export function localDateTime(
  instant: Date,
  timeZone: string,
): { date: string; hour: number; minute: number; second: number } {
  const checked = checkedZonedTime(ZONE_TABLE, instant.getTime(), timeZone);
  if (checked) {
    const two = (n: number) => String(n).padStart(2, "0");
    return {
      date: `${checked.year}-${two(checked.month)}-${two(checked.day)}`,
      hour: checked.hour,
      minute: checked.minute,
      second: checked.second,
    };
  }
  let format = formatters.get(timeZone);
  if (!format) {
    // Built once per zone: constructing a formatter costs far more than using one.
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(instant)) parts[part.type] = part.value;
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** Hour (local time of the registry) after which the previous day's data is complete. */
export const DATA_COMPLETE_HOUR = 7;

/**
 * The newest day whose changes are complete at `instant`: yesterday once the registry's
 * morning load is done (07:00 local), else the day before. Today is never complete.
 */
export function lastCompleteDay(instant: Date, timeZone: string): string {
  const local = localDateTime(instant, timeZone);
  return addDays(local.date, local.hour >= DATA_COMPLETE_HOUR ? -1 : -2);
}

/**
 * The day of an instant in the registry's calendar (`timeZone`, REGWATCH_REGISTRY_TZ), as
 * YYYY-MM-DD: the day a record is read or a name given, counted as the registry counts the days of
 * its changes and the payment check its hold period (in UTC, a record read at 00:30 in Budapest
 * would fall on the day before).
 */
export function registryDay(timeZone: string, now = new Date()): string {
  return localDateTime(now, timeZone).date;
}

/**
 * An instant as ISO 8601 with the zone's offset instead of Z (2026-11-27T07:15:00.000+01:00):
 * the same instant a JSON reader parses, written as the wall clock of `timeZone` reads it.
 */
export function isoInZone(instant: Date, timeZone: string): string {
  const local = localDateTime(instant, timeZone);
  const two = (n: number) => String(n).padStart(2, "0");
  const wall = `${local.date}T${two(local.hour)}:${two(local.minute)}:${two(local.second)}`;
  const ms = instant.getUTCMilliseconds();
  const offsetMin = Math.round((Date.parse(`${wall}Z`) + ms - instant.getTime()) / 60_000);
  const sign = offsetMin < 0 ? "-" : "+";
  const abs = Math.abs(offsetMin);
  return `${wall}.${String(ms).padStart(3, "0")}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

const zoneNames = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant as a terminal line shows it: the wall clock of `timeZone` with the zone's short
 * name, `2026-11-27 07:15 CET` (with `seconds`, `07:15:03`).
 */
export function zonedStamp(instant: Date, timeZone: string, options: { seconds?: boolean } = {}): string {
  const local = localDateTime(instant, timeZone);
  const two = (n: number) => String(n).padStart(2, "0");
  const time = `${two(local.hour)}:${two(local.minute)}${options.seconds ? `:${two(local.second)}` : ""}`;
  return `${local.date} ${time} ${zoneName(instant, timeZone)}`;
}

/** The zone's short name at `instant`, from the build's table where it vouches for it, else Intl. */
function zoneName(instant: Date, timeZone: string): string {
  const checked = checkedZonedTime(ZONE_TABLE, instant.getTime(), timeZone);
  const fromTable = checked && ZONE_TABLE && tableZoneName(ZONE_TABLE, timeZone, checked);
  if (fromTable) return fromTable;
  let names = zoneNames.get(timeZone);
  if (!names) {
    names = new Intl.DateTimeFormat("en-GB", { timeZone, timeZoneName: "short" });
    zoneNames.set(timeZone, names);
  }
  return names.formatToParts(instant).find((p) => p.type === "timeZoneName")?.value ?? timeZone;
}

/**
 * JSON text whose instants (Date values) are written with `timeZone`'s offset instead of Z
 * (isoInZone): the same instants, read as that zone's wall clock. Field names are kept.
 */
export function jsonInZone(value: unknown, timeZone: string, indent?: number): string {
  return JSON.stringify(
    value,
    function (this: Record<string, unknown>, key, shown) {
      const raw = this[key];
      return raw instanceof Date && !Number.isNaN(raw.getTime()) ? isoInZone(raw, timeZone) : shown;
    },
    indent,
  );
}

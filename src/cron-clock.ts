/**
 * The two Intl formatters node-cron's matcher reads a zone's wall clock with, answered from
 * Temporal where the build's zone table vouches for the zone and the instant (src/zone-clock.ts),
 * so that `regwatch status` reading its schedule builds no Intl formatter. The status file's build
 * puts `cronFormatter` in place of node-cron's `new Intl.DateTimeFormat(...)` (scripts/
 * one-file-builds.mjs); what the table does not vouch for goes to the formatter node-cron made.
 */
import { checkedZonedTime } from "./zone-clock.ts";
import { ZONE_TABLE } from "./zone-table.ts";

type Parts = { type: string; value: string }[];

/** Intl's `en-US` short weekdays, by Temporal's dayOfWeek (1 for Monday). */
const WEEKDAYS = ["", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/**
 * A stand-in for node-cron's formatter of `kind`: `parts` (year to second and the weekday, in
 * numbers as `en-US` writes them with 2-digit fields) or `offset` (`shortOffset`: `GMT`,
 * `GMT+1`, `GMT-9:30`). `intl` makes node-cron's own, only when first needed.
 */
export function cronFormatter(
  kind: "parts" | "offset",
  timeZone: string | undefined,
  intl: () => Intl.DateTimeFormat,
): { formatToParts(date: Date | number): Parts } {
  let made: Intl.DateTimeFormat | undefined;
  const fallback = (date: Date | number) => {
    made ??= intl();
    return made.formatToParts(date);
  };
  return {
    formatToParts(date) {
      const instant = typeof date === "number" ? date : date.getTime();
      const time = timeZone === undefined ? undefined : checkedZonedTime(ZONE_TABLE, instant, timeZone);
      if (!time) return fallback(date);
      if (kind === "offset")
        return [{ type: "timeZoneName", value: shortOffset(time.offsetNanoseconds / 60e9) }];
      const two = (n: number) => String(n).padStart(2, "0");
      return [
        { type: "weekday", value: WEEKDAYS[time.dayOfWeek] ?? "" },
        { type: "month", value: two(time.month) },
        { type: "day", value: two(time.day) },
        { type: "year", value: String(time.year) },
        { type: "hour", value: two(time.hour) },
        { type: "minute", value: two(time.minute) },
        { type: "second", value: two(time.second) },
      ];
    },
  };
}

/**
 * `shortOffset`'s text of an offset in minutes (whole minutes: the table holds no other). No
 * offset is `GMT`, which node-cron reads as it reads Intl's `GMT+0` of some zones: as none.
 */
function shortOffset(minutes: number): string {
  if (minutes === 0) return "GMT";
  const abs = Math.abs(minutes);
  const rest = abs % 60;
  return `GMT${minutes < 0 ? "-" : "+"}${Math.floor(abs / 60)}${rest ? `:${String(rest).padStart(2, "0")}` : ""}`;
}

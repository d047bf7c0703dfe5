/**
 * The wall clock of a time zone without Intl, for `regwatch status`: the first Intl formatter a
 * process builds costs about 10 ms of CPU (V8 lists every locale it could serve first), a seventh
 * of the command's start. Node's Temporal answers an instant's local time and offset for a
 * fraction of that, and a table the build makes (dist/cli-status.cjs only, scripts/
 * one-file-builds.mjs) holds the short names Intl gives each zone's offsets (`CET`, `CEST`,
 * `GMT+9`). Both are used only where the build checked them against Intl: the same ICU, CLDR and
 * time zone data as this process's, a zone the table holds, an instant inside the years it
 * covers. Anything else is answered by Intl, as before (src/dates.ts).
 */

/** What regwatch reads of Temporal (Node 26 has it; Node 24 does not). */
interface ZonedDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 1 for Monday to 7 for Sunday. */
  dayOfWeek: number;
  offsetNanoseconds: number;
  epochMilliseconds: number;
  getTimeZoneTransition(direction: "next"): ZonedDateTime | null;
}
interface TemporalLike {
  Instant: { fromEpochMilliseconds(ms: number): { toZonedDateTimeISO(zone: string): ZonedDateTime } };
}

/** The short names of each zone's offsets, as Intl writes them (en-GB), checked by the build. */
export interface ZoneTable {
  /** The ICU, CLDR and time zone data the table was made with (dataVersions). */
  versions: string;
  /** The instants it covers, in epoch milliseconds: [from, to). */
  from: number;
  to: number;
  /** Zone, then its offset in minutes, to the zone's short name at that offset. */
  zones: Record<string, Record<string, string>>;
}

const temporal = (globalThis as { Temporal?: TemporalLike }).Temporal;

const { icu, cldr, tz } = process.versions as Record<string, string | undefined>;
const DATA_VERSIONS = `icu ${icu} cldr ${cldr} tz ${tz}`;

/** The data this process's Intl and Temporal answer from. */
export function dataVersions(): string {
  return DATA_VERSIONS;
}

/** True when the table vouches for `zone` in this process (Intl knows it: the build asked). */
export function tableHolds(table: ZoneTable | undefined, zone: string): boolean {
  return table !== undefined && Object.hasOwn(table.zones, zone) && table.versions === dataVersions();
}

/** The local time of `instant` in `zone`, or undefined where the table does not vouch for it. */
export function checkedZonedTime(
  table: ZoneTable | undefined,
  instant: number,
  zone: string,
): ZonedDateTime | undefined {
  if (!temporal || !table || !(instant >= table.from && instant < table.to)) return undefined;
  if (!tableHolds(table, zone)) return undefined;
  return temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(zone);
}

/** The short name the table holds for the zone of `time` at its offset, if it holds one. */
export function tableZoneName(table: ZoneTable, zone: string, time: ZonedDateTime): string | undefined {
  const minutes = time.offsetNanoseconds / 60e9;
  return Number.isInteger(minutes) ? table.zones[zone]?.[String(minutes)] : undefined;
}

/**
 * The table for `zones` over [from, to) (the build's; undefined without Temporal). A zone is left
 * out if, anywhere in those years, Temporal's offset differs from Intl's, or one offset carries
 * two names: each span between two of the zone's transitions is read at its first and last
 * millisecond and every 30 days in between.
 */
export function makeZoneTable(zones: readonly string[], from: number, to: number): ZoneTable | undefined {
  if (!temporal) return undefined;
  const table: ZoneTable = { versions: dataVersions(), from, to, zones: {} };
  for (const zone of zones) {
    const names = zoneNames(temporal, zone, from, to);
    if (names) table.zones[zone] = names;
  }
  return table;
}

const SAMPLE_MS = 30 * 86_400_000;

function zoneNames(
  clock: TemporalLike,
  zone: string,
  from: number,
  to: number,
): Record<string, string> | undefined {
  const short = new Intl.DateTimeFormat("en-GB", { timeZone: zone, timeZoneName: "short" });
  const offset = new Intl.DateTimeFormat("en-GB", { timeZone: zone, timeZoneName: "longOffset" });
  const nameAt = (formatter: Intl.DateTimeFormat, ms: number) =>
    formatter.formatToParts(ms).find((p) => p.type === "timeZoneName")?.value;
  const names: Record<string, string> = {};
  let start = clock.Instant.fromEpochMilliseconds(from).toZonedDateTimeISO(zone);
  while (start.epochMilliseconds < to) {
    const next = start.getTimeZoneTransition("next");
    const end = Math.min(next?.epochMilliseconds ?? to, to);
    const samples: number[] = [];
    for (let ms = start.epochMilliseconds; ms < end - 1; ms += SAMPLE_MS) samples.push(ms);
    samples.push(end - 1);
    for (const ms of samples) {
      const time = clock.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone);
      const minutes = time.offsetNanoseconds / 60e9;
      const name = nameAt(short, ms);
      if (!Number.isInteger(minutes) || name === undefined) return undefined;
      if (offsetMinutes(nameAt(offset, ms)) !== minutes) return undefined;
      const key = String(minutes);
      if (names[key] !== undefined && names[key] !== name) return undefined;
      names[key] = name;
    }
    if (!next) break;
    start = next;
  }
  return names;
}

/** The minutes of Intl's `longOffset` text (`GMT`, `GMT+00:00`, `GMT-09:30`); NaN for other text. */
function offsetMinutes(text: string | undefined): number {
  if (text === "GMT") return 0;
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(text ?? "");
  if (!match) return Number.NaN;
  return (match[1] === "-" ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

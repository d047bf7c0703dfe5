/**
 * The wall clock of a zone from Temporal and the build's table of short names (src/zone-clock.ts),
 * which `regwatch status` reads instead of Intl: it must say what Intl says, instant for instant,
 * and give way to Intl wherever the table does not vouch for the zone, the instant or this Node's
 * data. The table here is made as the status file's build makes it (the sources have none), and
 * put in src/zone-table.ts's place for the modules that read it.
 */
import { describe, expect, it, vi } from "vitest";
import { cronFormatter } from "../../src/cron-clock.ts";
import { isoInZone, localDateTime, zonedStamp } from "../../src/dates.ts";
import { checkedZonedTime, makeZoneTable, tableHolds, tableZoneName } from "../../src/zone-clock.ts";

const { ZONES, FROM, TO } = vi.hoisted(() => ({
  ZONES: [
    "Europe/Budapest",
    "Europe/London",
    "Europe/Dublin",
    "America/New_York",
    "America/St_Johns",
    "Asia/Kathmandu",
    "Asia/Tokyo",
    "Australia/Lord_Howe",
    "Pacific/Chatham",
    "UTC",
  ],
  FROM: Date.UTC(2025, 0, 1),
  TO: Date.UTC(2029, 0, 1),
}));

vi.mock("../../src/zone-table.ts", async () => {
  const clock = await import("../../src/zone-clock.ts");
  return { ZONE_TABLE: clock.makeZoneTable(ZONES, FROM, TO) };
});

const table = makeZoneTable(ZONES, FROM, TO);

/** Every 61 minutes through the table's years, and each zone's DST changes to the minute. */
function instants(): number[] {
  const out: number[] = [];
  for (let ms = FROM; ms < TO; ms += 61 * 60_000 * 13) out.push(ms);
  // The hours around Budapest's and New York's changes of 2026, minute by minute.
  for (const change of [Date.UTC(2026, 2, 29, 1), Date.UTC(2026, 9, 25, 1), Date.UTC(2026, 2, 8, 7)])
    for (let ms = change - 3_600_000; ms <= change + 3_600_000; ms += 60_000) out.push(ms);
  return out;
}

function intlParts(formatter: Intl.DateTimeFormat, ms: number): Record<string, string> {
  return Object.fromEntries(formatter.formatToParts(ms).map((p) => [p.type, p.value]));
}

/**
 * The offset node-cron reads from its offset formatter's parts (its getTimezoneGMT): `Z` for none
 * (Intl writes UTC's as `GMT+0`, London's winter as `GMT`), else `GMT+05:45` and the like.
 */
function cronOffset(parts: { type: string; value: string }[]): string {
  const text = parts.find((p) => p.type === "timeZoneName")?.value ?? "";
  const match = /^GMT([+-])(\d{1,2})(?::(\d{2}))?$/.exec(text);
  if (!match || (Number(match[2]) === 0 && Number(match[3] ?? 0) === 0)) return "Z";
  return `GMT${match[1]}${match[2]?.padStart(2, "0")}:${(match[3] ?? "00").padStart(2, "0")}`;
}

describe("the zone clock (Temporal and the build's table)", () => {
  it("tells each instant's wall clock and short name as Intl does", () => {
    expect(table).toBeDefined();
    for (const zone of ZONES) {
      expect(tableHolds(table, zone), zone).toBe(true);
      const wall = new Intl.DateTimeFormat("en-CA", {
        timeZone: zone,
        ...{ year: "numeric", month: "2-digit", day: "2-digit" },
        ...{ hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" },
      });
      const short = new Intl.DateTimeFormat("en-GB", { timeZone: zone, timeZoneName: "short" });
      for (const ms of instants()) {
        const time = checkedZonedTime(table, ms, zone);
        if (!time || !table) throw new Error(`${zone} ${ms} not vouched for`);
        const p = intlParts(wall, ms);
        const two = (n: number) => String(n).padStart(2, "0");
        const mine = `${time.year}-${two(time.month)}-${two(time.day)} ${two(time.hour)}:${two(time.minute)}:${two(time.second)}`;
        expect(mine, `${zone} ${ms}`).toBe(`${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`);
        expect(tableZoneName(table, zone, time), `${zone} ${ms}`).toBe(intlParts(short, ms).timeZoneName);
      }
    }
  });

  it("vouches for nothing outside its years, for a zone it does not hold, or for other data", () => {
    expect(checkedZonedTime(table, FROM - 1, "Europe/Budapest")).toBeUndefined();
    expect(checkedZonedTime(table, TO, "Europe/Budapest")).toBeUndefined();
    expect(checkedZonedTime(table, Number.NaN, "Europe/Budapest")).toBeUndefined();
    expect(checkedZonedTime(table, FROM, "Europe/Paris")).toBeUndefined();
    expect(checkedZonedTime(undefined, FROM, "Europe/Budapest")).toBeUndefined();
    const other = table && { ...table, versions: "icu 1 cldr 1 tz 1900a" };
    expect(checkedZonedTime(other, FROM, "Europe/Budapest")).toBeUndefined();
    expect(tableHolds(other, "Europe/Budapest")).toBe(false);
  });

  it("gives src/dates.ts the same times and names as Intl", () => {
    const winter = new Date("2026-11-27T06:15:03.250Z");
    const summer = new Date("2026-07-01T05:15:00Z");
    expect(zonedStamp(winter, "Europe/Budapest")).toBe("2026-11-27 07:15 CET");
    expect(zonedStamp(summer, "Europe/Budapest", { seconds: true })).toBe("2026-07-01 07:15:00 CEST");
    expect(zonedStamp(summer, "Europe/London")).toBe("2026-07-01 06:15 BST");
    expect(isoInZone(winter, "Europe/Budapest")).toBe("2026-11-27T07:15:03.250+01:00");
    expect(isoInZone(summer, "Asia/Kathmandu")).toBe("2026-07-01T11:00:00.000+05:45");
    expect(localDateTime(winter, "Pacific/Chatham")).toEqual({
      date: "2026-11-27",
      hour: 20,
      minute: 0,
      second: 3,
    });
    // Outside the table's years, and in a zone it does not hold, Intl answers as before.
    expect(zonedStamp(new Date("2031-01-15T12:00:00Z"), "Europe/Budapest")).toBe("2031-01-15 13:00 CET");
    expect(zonedStamp(winter, "Europe/Paris")).toBe("2026-11-27 07:15 CET");
  });

  it("gives node-cron's matcher the parts and offsets its Intl formatters give, and theirs outside", () => {
    const made: string[] = [];
    const maker = (zone: string, formatter: Intl.DateTimeFormat) => () => {
      made.push(zone);
      return formatter;
    };
    for (const zone of ["Europe/Budapest", "America/St_Johns", "Asia/Kathmandu", "UTC"]) {
      const parts = new Intl.DateTimeFormat("en-US", {
        ...{ year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" },
        ...{ second: "2-digit", weekday: "short", hour12: false, timeZone: zone },
      });
      const offset = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "shortOffset" });
      const mine = cronFormatter("parts", zone, maker(zone, parts));
      const mineOffset = cronFormatter("offset", zone, maker(zone, offset));
      for (const ms of instants().filter((_, i) => i % 7 === 0)) {
        const theirs = intlParts(parts, ms);
        const ours = Object.fromEntries(mine.formatToParts(ms).map((p) => [p.type, p.value]));
        for (const field of ["year", "month", "day", "minute", "second"])
          expect(Number(ours[field]), `${zone} ${ms} ${field}`).toBe(Number(theirs[field]));
        // node-cron reads Intl's "24" of midnight as hour 0.
        expect(Number(ours.hour) % 24, `${zone} ${ms}`).toBe(Number(theirs.hour) % 24);
        expect(ours.weekday).toBe(theirs.weekday);
        expect(cronOffset(mineOffset.formatToParts(new Date(ms))), `${zone} ${ms}`).toBe(
          cronOffset(offset.formatToParts(ms)),
        );
      }
    }
    expect(made).toEqual([]);
    // After the table's years, node-cron's own formatter answers.
    const offset = new Intl.DateTimeFormat("en-US", {
      timeZone: "Europe/Budapest",
      timeZoneName: "shortOffset",
    });
    const later = cronFormatter("offset", "Europe/Budapest", maker("later", offset));
    expect(later.formatToParts(new Date("2031-06-01T00:00:00Z"))).toContainEqual({
      type: "timeZoneName",
      value: "GMT+2",
    });
    expect(made).toEqual(["later"]);
  });
});

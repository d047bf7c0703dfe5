/**
 * The emulator's simulated clock and the registry's daily data load. Tests freeze and move the
 * clock; the demo lets it run with real time from a chosen start.
 */
import { addDays } from "../dates.ts";

/** Local time zone of the registry; its 06:00 load decides what data is visible. */
export const REGISTRY_TIME_ZONE = "Europe/Budapest";
/** Hour at which the registry loads the previous day's data. */
export const LOAD_HOUR = 6;

// One formatter for the process: building an Intl formatter per call is slow.
const budapestParts = new Intl.DateTimeFormat("en-CA", {
  timeZone: REGISTRY_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  hourCycle: "h23",
});

/** Date (YYYY-MM-DD) and hour of an instant on the registry's wall clock. */
export function registryLocalTime(instant: Date): { date: string; hour: number } {
  const parts = budapestParts.formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return { date: `${get("year")}-${get("month")}-${get("day")}`, hour: Number(get("hour")) };
}

/**
 * The date of the first data load after `instant`: today's when it is still before 06:00 local,
 * else tomorrow's. A watched item reports changes dated on or after this day.
 */
export function activationDate(instant: Date): string {
  const local = registryLocalTime(instant);
  return local.hour < LOAD_HOUR ? local.date : addDays(local.date, 1);
}

/** The newest day whose data has been loaded at `instant` (day D is loaded at D+1 06:00 local). */
export function lastLoadedDay(instant: Date): string {
  const local = registryLocalTime(instant);
  return addDays(local.date, local.hour >= LOAD_HOUR ? -1 : -2);
}

/** Calendar month (YYYY-MM) of an instant on the registry's wall clock; the search quota's period. */
export function registryMonth(instant: Date): string {
  return registryLocalTime(instant).date.slice(0, 7);
}

/** Simulated time: an offset from real time, or a fixed instant while frozen. */
export class SimulatedClock {
  private baseSim: number;
  private baseReal: number;

  constructor(
    start: string | undefined,
    private frozen: boolean,
  ) {
    this.baseSim = start === undefined ? Date.now() : parseInstant(start);
    this.baseReal = Date.now();
  }

  now(): Date {
    return new Date(this.frozen ? this.baseSim : this.baseSim + (Date.now() - this.baseReal));
  }

  set(iso: string): void {
    this.baseSim = parseInstant(iso);
    this.baseReal = Date.now();
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms)) throw new Error("advanceMs must be a finite number of milliseconds");
    this.set(new Date(this.now().getTime() + ms).toISOString());
  }

  freeze(frozen: boolean): void {
    const now = this.now().getTime();
    this.frozen = frozen;
    this.baseSim = now;
    this.baseReal = Date.now();
  }

  isFrozen(): boolean {
    return this.frozen;
  }
}

function parseInstant(iso: string): number {
  const ms = Date.parse(iso);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(iso) || Number.isNaN(ms)) {
    throw new Error(`"${iso}" is not an ISO instant such as 2024-03-01T08:00:00Z`);
  }
  return ms;
}

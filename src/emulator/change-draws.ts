/**
 * The generated changes of one business in one month: a pure function of (seed, business,
 * month), so any interval can be produced on demand. Two generators: the plain one the emulator
 * always had, and the worldly one the switches of world.ts ask for (one change per chapter and
 * day, status episodes, same-day chains and repeated headings).
 */
import { fromEpochDay, toEpochDay } from "../dates.ts";
import type { Business } from "./businesses.ts";
import type { BusinessType } from "./identifiers.ts";
import { Rng } from "./random.ts";
import type { World } from "./world.ts";

/** A value a test gave for one heading of a change; a heading may come twice. */
export interface GivenValue {
  heading: string;
  /** Left out of the file's entry when absent (a heading with no earlier value, as some files write it). */
  old_value?: unknown;
  new_value: unknown;
  /** A person's wording of the change, written beside the values (never holding the old value). */
  label?: string;
}

/** One change of one business on one day. */
export interface Change {
  tax_id: string;
  type: BusinessType;
  date: string;
  /** Numbers the business's changes of the day as listed (and in the name of its own file). */
  seq: number;
  /** Position in the day's event order; the listing order need not follow it. */
  order: number;
  chapter: string;
  headings: string[];
  /** Headings whose value changes twice within this change, so its file lists them twice. */
  repeated?: string[];
  /** Status change of an episode: the values the episode gives it (before, after). */
  episode?: readonly [number, number];
  /** Values a test gave, in file order. */
  values?: GivenValue[];
  /** Served in the shared file of its form and day instead of a file of its own. */
  shared: boolean;
  /** Its own file answers 200 with a body of a layout no reader knows (an unreadable change file). */
  unreadable?: boolean;
  explicit: boolean;
}

// Chapters of the change records and the headings each may change, by business type.
export const CHAPTERS: Record<BusinessType, ReadonlyArray<readonly [string, readonly string[]]>> = {
  companies: [
    ["general", ["long_name", "short_name", "address", "status"]],
    ["representation", ["representatives"]],
    ["finance", ["bank_accounts"]],
    ["activities", ["main_activities"]],
  ],
  self_employed: [
    ["general", ["long_name", "address", "status"]],
    ["activities", ["main_activities"]],
  ],
  civil_orgs: [
    ["general", ["long_name", "short_name", "address", "status"]],
    ["representation", ["representatives"]],
    ["activities", ["main_activities"]],
  ],
  budget_orgs: [
    ["general", ["long_name", "address"]],
    ["representation", ["representatives"]],
  ],
};

/**
 * Chapter of a same-day correction. It sorts before every chapter whose headings it corrects,
 * so ordering a day's changes by chapter name puts the later event first.
 */
export const CORRECTIONS_CHAPTER = "corrections";

const CHANCE_OF_CORRECTION = 0.2;
const DAY_MS = 86_400_000;
const CHANCE_OF_REPEAT = 0.15;

/** Draws a count with mean `mean` (Poisson, by inversion: cheap for the small means used here). */
function poisson(rng: Rng, mean: number): number {
  const limit = Math.exp(-mean);
  let count = 0;
  let product = rng.next();
  while (product > limit && count < 100) {
    count += 1;
    product *= rng.next();
  }
  return count;
}

interface Draw {
  date: string;
  chapter: string;
  headings: string[];
  repeated?: string[];
  episode?: readonly [number, number];
}

function monthDraws(seed: number, business: Business, year: number, month: number, perMonth: number) {
  const rng = new Rng(seed, 201, business.index, year * 12 + month);
  const firstDay = toEpochDay(`${year}-${String(month).padStart(2, "0")}-01`);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return Array.from({ length: poisson(rng, perMonth) }, () => {
    const [chapter, headings] = rng.pick(CHAPTERS[business.type]);
    const first = rng.pick(headings);
    const second = rng.chance(0.25) ? rng.pick(headings) : first;
    return {
      date: fromEpochDay(firstDay + rng.int(daysInMonth)),
      chapter,
      headings: first === second ? [first] : [first, second],
    };
  });
}

const byDate = <T extends { date: string }>(a: T, b: T) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);

/** The changes the emulator always generated: any chapter may come twice a day; seq is event order. */
export function plainMonth(
  seed: number,
  business: Business,
  year: number,
  month: number,
  perMonth: number,
): Change[] {
  const drawn = monthDraws(seed, business, year, month, perMonth).sort(byDate);
  const changes: Change[] = [];
  let seq = 0;
  drawn.forEach((d, i) => {
    seq = i > 0 && drawn[i - 1]!.date === d.date ? seq + 1 : 1;
    if (d.date > business.founded_at) {
      changes.push({
        tax_id: business.tax_id,
        type: business.type,
        date: d.date,
        seq,
        order: seq,
        chapter: d.chapter,
        headings: d.headings,
        shared: false,
        explicit: false,
      });
    }
  });
  return changes;
}

/** The statuses a business of this type can have. */
export function statusesOf(type: BusinessType): readonly number[] {
  return type === "self_employed" ? [0, 1, 2] : [0, 1];
}

function hasStatus(type: BusinessType): boolean {
  return CHAPTERS[type].some(([, headings]) => headings.includes("status"));
}

/**
 * A year's status episode: the status leaves the founding one on one day and comes back on a
 * later day of the same year. Every year therefore starts from the founding status, so the status
 * on any day follows from that year alone, and no status change ever repeats the status it had.
 */
export function statusEpisode(
  seed: number,
  business: Business,
  year: number,
  perMonth: number,
  month?: number,
): Draw[] {
  if (!hasStatus(business.type)) return [];
  const rng = new Rng(seed, 211, business.index, year);
  if (!rng.chance(Math.min(0.9, perMonth / 6))) return [];
  const first = Date.UTC(year, 0, 1) / DAY_MS;
  const length = Date.UTC(year + 1, 0, 1) / DAY_MS - first;
  const leave = first + rng.int(length - 1);
  const back = leave + 1 + rng.int(Math.min(90, first + length - leave - 1));
  const base = business.status_code;
  const away = rng.pick(statusesOf(business.type).filter((s) => s !== base));
  // Most months hold neither day; only those that do pay for formatting dates.
  const inMonth = (day: number) =>
    month === undefined ||
    (day >= Date.UTC(year, month - 1, 1) / DAY_MS && day < Date.UTC(year, month, 1) / DAY_MS);
  const draws: Draw[] = [];
  if (inMonth(leave))
    draws.push({
      date: fromEpochDay(leave),
      chapter: "general",
      headings: ["status"],
      episode: [base, away],
    });
  if (inMonth(back))
    draws.push({ date: fromEpochDay(back), chapter: "general", headings: ["status"], episode: [away, base] });
  return draws.filter((d) => d.date > business.founded_at);
}

/** Headings a same-day correction may touch: those of chapters sorting after its own. */
function correctable(chapter: string, headings: readonly string[]): string[] {
  return chapter > CORRECTIONS_CHAPTER ? headings.filter((h) => h !== "status") : [];
}

/**
 * The worldly month: status only through episodes when values have a history, one change per
 * chapter and day (a shared file names changes by business and chapter), and with chains on,
 * some changes corrected later the same day and some headings changed twice in one change.
 */
export function worldlyMonth(
  seed: number,
  business: Business,
  year: number,
  month: number,
  perMonth: number,
  world: World,
): Change[] {
  const originals: Draw[] = [];
  const corrections: Draw[] = [];
  // A stream of its own, so the plain draws stay those of the plain generator.
  const extras = new Rng(seed, 202, business.index, year * 12 + month);
  for (const d of monthDraws(seed, business, year, month, perMonth)) {
    const [extra, extraHeading] = [extras.next(), extras.next()];
    // With a history, status moves only through episodes, which never repeat a status.
    const headings = world.valueHistory ? d.headings.filter((h) => h !== "status") : d.headings;
    if (headings.length === 0) continue;
    const draw: Draw = { date: d.date, chapter: d.chapter, headings };
    const chainable = correctable(d.chapter, headings);
    if (world.sameDayChains && chainable.length > 0 && extra < CHANCE_OF_CORRECTION) {
      const heading = chainable[Math.floor(extraHeading * chainable.length)]!;
      corrections.push({ date: d.date, chapter: CORRECTIONS_CHAPTER, headings: [heading] });
    } else if (
      world.sameDayChains &&
      chainable.length > 0 &&
      extra < CHANCE_OF_CORRECTION + CHANCE_OF_REPEAT
    ) {
      draw.repeated = [chainable[Math.floor(extraHeading * chainable.length)]!];
    }
    originals.push(draw);
  }
  if (world.valueHistory) {
    originals.push(...statusEpisode(seed, business, year, perMonth, month));
  }
  const days = new Map<string, Draw[]>();
  // Corrections come after every original of their day; within each group, draw order is event order.
  for (const d of [...originals, ...corrections]) {
    if (d.date <= business.founded_at) continue;
    const day = days.get(d.date) ?? [];
    const same = day.find((e) => e.chapter === d.chapter);
    if (same) merge(same, d, world.sameDayChains);
    else day.push({ ...d, headings: [...d.headings] });
    days.set(d.date, day);
  }
  const changes: Change[] = [];
  for (const date of [...days.keys()].sort()) {
    const events = days.get(date)!;
    events.forEach((e, order) => {
      changes.push({
        tax_id: business.tax_id,
        type: business.type,
        date,
        // With chains on, the listing runs against event order: the later change is listed first.
        seq: world.sameDayChains ? events.length - order : order + 1,
        order,
        chapter: e.chapter,
        headings: e.headings,
        ...(e.repeated && e.repeated.length > 0 ? { repeated: e.repeated } : {}),
        ...(e.episode ? { episode: e.episode } : {}),
        shared: world.sharedFiles,
        explicit: false,
      });
    });
  }
  return changes;
}

/**
 * Folds a second change of the same chapter and day into the first. With chains on, a heading
 * both change is one change that lists the heading twice; otherwise it is listed once.
 */
function merge(into: Draw, d: Draw, repeat: boolean): void {
  const again = d.headings.filter((h) => into.headings.includes(h) && h !== "status");
  into.headings.push(...d.headings.filter((h) => !into.headings.includes(h)));
  if (repeat) {
    const repeated = new Set([...(into.repeated ?? []), ...again, ...(d.repeated ?? [])]);
    if (repeated.size > 0) into.repeated = [...repeated];
  }
  if (d.episode) into.episode = d.episode;
}

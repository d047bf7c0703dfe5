/**
 * The old and new value of every heading a change touches, and the value a heading has on any
 * day. Plain values are drawn for each change alone (old from one variant of the business, new
 * from another); with `valueHistory` they form a history: a change's old value is the new value
 * of the previous change of that heading (or the founding record's), found by walking the
 * business's months backwards, so any interval is still produced on demand.
 */
import { toEpochDay } from "../dates.ts";
import type { Business, BusinessDirectory } from "./businesses.ts";
import { CHAPTERS, type Change, statusesOf } from "./change-draws.ts";
import type { ChangeHistory } from "./changes.ts";
import { hashText, mix } from "./random.ts";

// Record field that holds each heading's value.
export const HEADING_FIELDS: Record<string, keyof Business> = {
  long_name: "full_name",
  short_name: "short_name",
  address: "address",
  status: "status_code",
  representatives: "representatives",
  bank_accounts: "bank_accounts",
  main_activities: "main_activities",
};

export interface FileEntry {
  heading: string;
  /** Absent when a given value leaves it out. */
  old_value?: unknown;
  new_value: unknown;
  label?: string;
}

/** One value change: the k-th change of `heading` within `change`. */
interface Step {
  change: Change;
  heading: string;
  k: number;
}

// Steps remembered (candidates, previous step), so walking a history twice does not redo it.
const CACHE_SIZE = 50_000;
// Headings only an added change can bring to a type that lacks them.
const ADDED_HEADINGS = Object.keys(HEADING_FIELDS);
// Draws spent looking for candidates that differ from each other.
const DISTINCT_ATTEMPTS = 12;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** How many times a change changes a heading (a heading listed twice changes twice). */
function stepsOf(change: Change, heading: string): number {
  if (change.values) return change.values.filter((v) => v.heading === heading).length;
  if (!change.headings.includes(heading)) return 0;
  return change.repeated?.includes(heading) ? 2 : 1;
}

const monthNumber = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;

const stepKey = (business: Business, step: Step) =>
  `${business.index}|${step.change.date}|${step.change.order}|${step.heading}|${step.k}`;

/** Keeps at most CACHE_SIZE entries, forgetting the oldest first. */
function remember<T>(cache: Map<string, T>, key: string, value: T): void {
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
}

function givenValue(step: Step) {
  return step.change.values!.filter((v) => v.heading === step.heading)[step.k]!;
}

export class HeadingValues {
  private readonly candidateCache = new Map<string, readonly unknown[]>();
  private readonly previousCache = new Map<string, Step | null>();

  constructor(
    private readonly seed: number,
    private readonly directory: BusinessDirectory,
    private readonly history: ChangeHistory,
  ) {}

  /** Forgets remembered candidates (the world changed, and with it which changes exist). */
  forget(): void {
    this.candidateCache.clear();
    this.previousCache.clear();
  }

  /** The entries of a change's file, in file order. */
  entries(business: Business, change: Change): FileEntry[] {
    if (change.values) {
      return change.values.map((v) => ({
        heading: v.heading,
        ...("old_value" in v ? { old_value: v.old_value ?? null } : {}),
        new_value: v.new_value ?? null,
        ...(v.label !== undefined ? { label: v.label } : {}),
      }));
    }
    if (!this.history.currentWorld().valueHistory) return this.plainEntries(business, change);
    return change.headings.flatMap((heading) =>
      Array.from({ length: stepsOf(change, heading) }, (_, k) => {
        const step = { change, heading, k };
        return { heading, old_value: this.before(business, step), new_value: this.after(business, step) };
      }),
    );
  }

  /** Each change drawn alone: old and new are two unrelated variants of the business. */
  private plainEntries(business: Business, change: Change): FileEntry[] {
    const day = toEpochDay(change.date);
    const before = this.directory.get(business.index, mix(this.seed, day, change.seq, 1));
    const after = this.directory.get(business.index, mix(this.seed, day, change.seq, 2));
    return change.headings.map((heading) => {
      const field = HEADING_FIELDS[heading];
      return {
        heading,
        old_value: field ? (before[field] ?? null) : null,
        new_value: field ? (after[field] ?? null) : null,
      };
    });
  }

  /**
   * The record as it stands after every change dated on or before `day`: each heading holds the
   * new value of its latest change, the rest is the founding record.
   */
  recordOn(business: Business, day: string): Business {
    const record: Business = { ...business };
    const fields = record as unknown as Record<string, unknown>;
    const headings = CHAPTERS[business.type]
      .flatMap(([, hs]) => hs)
      .filter((h) => !this.knownStatus(business, h));
    headings.push(
      ...ADDED_HEADINGS.filter((h) => !headings.includes(h) && this.history.addedTouches(business, h)),
    );
    for (const [heading, step] of this.latestSteps(business, headings, day)) {
      fields[HEADING_FIELDS[heading]!] = this.stepValue(business, step) ?? undefined;
    }
    if (this.knownStatus(business, "status")) fields.status_code = this.history.statusOn(business, day);
    return record;
  }

  /** A heading's value after every change dated on or before `day`. */
  valueOn(business: Business, heading: string, day: string): unknown {
    if (this.knownStatus(business, heading)) return this.history.statusOn(business, day);
    const step = this.latestSteps(business, [heading], day).get(heading);
    return step ? this.stepValue(business, step) : this.base(business, heading);
  }

  /** Whether the status follows from its year's episode alone (a history, and no test touched it). */
  private knownStatus(business: Business, heading: string): boolean {
    return (
      heading === "status" &&
      this.history.currentWorld().valueHistory &&
      !this.history.addedTouches(business, "status")
    );
  }

  private stepValue(business: Business, step: Step): unknown {
    return this.history.currentWorld().valueHistory
      ? this.after(business, step)
      : this.plainAfter(business, step);
  }

  private plainAfter(business: Business, step: Step): unknown {
    const entries = this.entries(business, step.change).filter((e) => e.heading === step.heading);
    return entries[step.k]?.new_value ?? null;
  }

  /** The last step of each heading dated on or before `day`, from one walk back through the months. */
  private latestSteps(business: Business, headings: readonly string[], day: string): Map<string, Step> {
    const found = new Map<string, Step>();
    for (const change of this.walkBack(business, day, Number.POSITIVE_INFINITY)) {
      for (const heading of headings) {
        const n = found.has(heading) ? 0 : stepsOf(change, heading);
        if (n > 0) found.set(heading, { change, heading, k: n - 1 });
      }
      if (found.size === headings.length) break;
    }
    return found;
  }

  /** Changes of the business before the event (date, order), latest first, back to its founding. */
  private *walkBack(business: Business, date: string, order: number): Generator<Change> {
    // Nothing happens before the founding, except what a test added there.
    const added = this.history.earliestAdded(business);
    const floor = monthNumber(added && added < business.founded_at ? added : business.founded_at);
    for (let ym = monthNumber(date); ym >= floor; ym--) {
      const events = this.history.eventsOfMonth(business, Math.floor(ym / 12), (ym % 12) + 1);
      for (let i = events.length - 1; i >= 0; i--) {
        const c = events[i]!;
        if (c.date < date || (c.date === date && c.order < order)) yield c;
      }
    }
  }

  /** The step before this one of the same heading, or null when the heading never changed before. */
  private previous(business: Business, step: Step): Step | null {
    if (step.k > 0) return { ...step, k: step.k - 1 };
    const key = stepKey(business, step);
    const known = this.previousCache.get(key);
    if (known !== undefined) return known;
    let found: Step | null = null;
    for (const change of this.walkBack(business, step.change.date, step.change.order)) {
      const n = stepsOf(change, step.heading);
      if (n > 0) {
        found = { change, heading: step.heading, k: n - 1 };
        break;
      }
    }
    remember(this.previousCache, key, found);
    return found;
  }

  private base(business: Business, heading: string): unknown {
    const field = HEADING_FIELDS[heading];
    return field ? (business[field] ?? null) : null;
  }

  /** The old value of a step: given, or the value the previous step left. */
  private before(business: Business, step: Step): unknown {
    if (step.change.values) return givenValue(step).old_value ?? null;
    if (this.cleanEpisode(business, step)) return step.change.episode![0];
    const previous = this.previous(business, step);
    return previous ? this.after(business, previous) : this.base(business, step.heading);
  }

  /**
   * The new value of a step: its first candidate unless the heading already held that value
   * just before (or earlier the same day, so a day's changes never come back to a value and
   * their chain always has one beginning), then the next one. Values held before are looked up
   * only when the first candidate could be one of them, so the walk back usually stops at once.
   */
  private after(business: Business, step: Step): unknown {
    const candidates = this.candidates(business, step);
    if (candidates.length === 1) return candidates[0];
    const previous = this.previous(business, step);
    if (previous?.change.date !== step.change.date) {
      const couldBe = previous ? this.candidates(business, previous) : [this.base(business, step.heading)];
      if (!couldBe.some((c) => same(c, candidates[0]))) return candidates[0];
    }
    const held: unknown[] = [];
    let p = previous;
    for (; p && p.change.date === step.change.date; p = this.previous(business, p))
      held.push(this.after(business, p));
    held.push(p ? this.after(business, p) : this.base(business, step.heading));
    return candidates.find((c) => !held.some((h) => same(h, c))) ?? candidates.at(-1);
  }

  /** An episode's status step when no added change touches the status: its value is known. */
  private cleanEpisode(business: Business, step: Step): boolean {
    return (
      step.heading === "status" &&
      step.change.episode !== undefined &&
      !this.history.addedTouches(business, "status")
    );
  }

  /** The values a step can take: one when it is given or known, else two that differ. */
  private candidates(business: Business, step: Step): readonly unknown[] {
    if (step.change.values) return [givenValue(step).new_value ?? null];
    if (this.cleanEpisode(business, step)) return [step.change.episode![1]];
    const key = stepKey(business, step);
    const cached = this.candidateCache.get(key);
    if (cached) return cached;
    const salt = (attempt: number) =>
      mix(
        this.seed,
        601,
        toEpochDay(step.change.date),
        step.change.order,
        hashText(step.heading),
        step.k,
        attempt,
      );
    let candidates: readonly unknown[];
    if (step.heading === "status") {
      const statuses = statusesOf(business.type);
      const first = step.change.episode?.[1] ?? statuses[salt(0) % statuses.length]!;
      const rest = statuses.filter((s) => s !== first);
      if (salt(1) % 2 === 1) rest.reverse();
      candidates = [first, ...rest];
    } else {
      const field = HEADING_FIELDS[step.heading];
      const variant = (attempt: number) =>
        field ? (this.directory.get(business.index, salt(attempt))[field] ?? null) : null;
      const distinct = [variant(0)];
      // Three differing values where the field has them: a same-day chain of a heading may have to
      // avoid the value it started from and the one in between.
      for (let a = 1; a <= DISTINCT_ATTEMPTS && distinct.length < 3; a++) {
        const v = variant(a);
        if (!distinct.some((d) => same(d, v))) distinct.push(v);
      }
      candidates = field ? distinct : [null];
    }
    remember(this.candidateCache, key, candidates);
    return candidates;
  }
}

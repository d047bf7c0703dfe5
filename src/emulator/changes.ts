/**
 * The registry's change history. Generated changes are a pure function of (seed, business,
 * month), so any interval of any business can be produced on demand; changes added through the
 * admin route or the in-process API are kept beside them.
 */
import { minDate } from "../dates.ts";
import type { Business } from "./businesses.ts";
import { type Change, type GivenValue, plainMonth, statusEpisode, worldlyMonth } from "./change-draws.ts";
import { usesWorldlyChanges, type World } from "./world.ts";

export type { Change, GivenValue } from "./change-draws.ts";

// Sequence numbers of explicitly added changes start here, clear of generated ones.
export const EXPLICIT_SEQ_BASE = 100;
// Added changes come after the generated ones of their day, in the order they were added.
const EXPLICIT_ORDER_BASE = 1000;
// Months of worldly changes kept: value histories read the same months again and again.
const MONTH_CACHE_SIZE = 50_000;
/** Name of the file a form's changes of one day share. */
export const SHARED_FILE_NAME = "changes.json";

export interface AddedChange {
  date: string;
  chapter: string;
  headings: string[];
  values?: GivenValue[];
  shared: boolean;
  seq?: number;
  unreadable?: boolean;
}

function monthsCovering(from: string, to: string): Array<{ year: number; month: number }> {
  const months: Array<{ year: number; month: number }> = [];
  let year = Number(from.slice(0, 4));
  let month = Number(from.slice(5, 7));
  const last = Number(to.slice(0, 4)) * 12 + Number(to.slice(5, 7));
  while (year * 12 + month <= last) {
    months.push({ year, month });
    month += 1;
    if (month > 12) {
      year += 1;
      month = 1;
    }
  }
  return months;
}

const listingOrder = (a: Change, b: Change) => (a.date === b.date ? a.seq - b.seq : a.date < b.date ? -1 : 1);
const eventOrder = (a: Change, b: Change) =>
  a.date === b.date ? a.order - b.order : a.date < b.date ? -1 : 1;

export class ChangeHistory {
  private readonly explicit = new Map<string, Change[]>();
  private readonly explicitByDay = new Map<string, Change[]>();
  private readonly months = new Map<string, Change[]>();

  constructor(
    private readonly seed: number,
    private readonly perMonth: number,
    private world: World,
  ) {}

  /** Switches the world; the months generated under the former one are forgotten. */
  setWorld(world: World): void {
    this.world = world;
    this.months.clear();
  }

  currentWorld(): World {
    return this.world;
  }

  /** Changes of one business dated within [from, to], in listing order (date, then seq). */
  between(business: Business, from: string, to: string): Change[] {
    const found: Change[] = [];
    for (const { year, month } of monthsCovering(from, to)) {
      for (const change of this.generated(business, year, month)) {
        if (change.date >= from && change.date <= to) found.push(change);
      }
    }
    for (const change of this.explicit.get(business.tax_id) ?? []) {
      if (change.date >= from && change.date <= to) found.push(change);
    }
    return found.sort(listingOrder);
  }

  /** Every change of one business in a month, in the order the events happened. */
  eventsOfMonth(business: Business, year: number, month: number): Change[] {
    const generated = this.generated(business, year, month);
    const list = this.explicit.get(business.tax_id);
    if (!list) return generated;
    const prefix = `${year}-${String(month).padStart(2, "0")}`;
    const added = list.filter((c) => c.date.startsWith(prefix));
    return added.length === 0 ? generated : [...generated, ...added].sort(eventOrder);
  }

  /**
   * The status on `day` from its year's episode: every year starts from the founding status.
   * Holds while no added change touches the status (the caller checks).
   */
  statusOn(business: Business, day: string): number {
    let status: number = business.status_code;
    for (const d of statusEpisode(this.seed, business, Number(day.slice(0, 4)), this.perMonth)) {
      if (d.date <= day) status = d.episode![1];
    }
    return status;
  }

  /** Changes added for `date` (any business); shared files read them. */
  addedOn(date: string): readonly Change[] {
    return this.explicitByDay.get(date) ?? [];
  }

  /** Whether any added change of the business carries `heading` (value histories need to know). */
  addedTouches(business: Business, heading: string): boolean {
    return (this.explicit.get(business.tax_id) ?? []).some(
      (c) => c.headings.includes(heading) || c.values?.some((v) => v.heading === heading),
    );
  }

  /** Tax ids of the businesses with added changes. */
  addedTaxIds(): Iterable<string> {
    return this.explicit.keys();
  }

  /** Date of the business's earliest added change, if any. */
  earliestAdded(business: Business): string | null {
    const list = this.explicit.get(business.tax_id) ?? [];
    return list.length > 0 ? list.map((c) => c.date).reduce(minDate) : null;
  }

  private generated(business: Business, year: number, month: number): Change[] {
    if (!usesWorldlyChanges(this.world)) return plainMonth(this.seed, business, year, month, this.perMonth);
    const key = `${business.index}:${year * 12 + month}`;
    const cached = this.months.get(key);
    if (cached) return cached;
    const changes = worldlyMonth(this.seed, business, year, month, this.perMonth, this.world);
    if (this.months.size >= MONTH_CACHE_SIZE) this.months.delete(this.months.keys().next().value!);
    this.months.set(key, changes);
    return changes;
  }

  /** Records a change beside the generated ones (tests and demos use it for known content). */
  add(business: Business, input: AddedChange): Change {
    const list = this.explicit.get(business.tax_id) ?? [];
    const sameDay = list.filter((c) => c.date === input.date);
    const seq = input.seq ?? Math.max(EXPLICIT_SEQ_BASE - 1, ...sameDay.map((c) => c.seq)) + 1;
    if (sameDay.some((c) => c.seq === seq)) {
      throw new Error(`seq ${seq} is taken by another added change of ${business.tax_id} on ${input.date}`);
    }
    const change: Change = {
      tax_id: business.tax_id,
      type: business.type,
      date: input.date,
      seq,
      order: EXPLICIT_ORDER_BASE + sameDay.length,
      chapter: input.chapter,
      headings: input.headings,
      ...(input.values ? { values: input.values } : {}),
      shared: input.shared,
      ...(input.unreadable ? { unreadable: true } : {}),
      explicit: true,
    };
    list.push(change);
    this.explicit.set(business.tax_id, list);
    this.explicitByDay.set(input.date, [...this.addedOn(input.date), change]);
    return change;
  }

  /** The change a file name of its own denotes, or null. */
  find(business: Business, date: string, seq: number): Change | null {
    return this.between(business, date, date).find((c) => c.seq === seq && !c.shared) ?? null;
  }
}

/** Relative file location of a change: `<date>/<business_form>/<file_name>`. */
export function changeFilePath(change: Change): string {
  const name = change.shared ? SHARED_FILE_NAME : `${change.tax_id}_${change.seq}.json`;
  return `${change.date}/${change.type}/${name}`;
}

export type FileLocation =
  | { kind: "own"; date: string; type: string; taxId: string; seq: number }
  | { kind: "shared"; date: string; type: string };

/** Parses a relative file location back into its parts, or null when it has another shape. */
export function parseChangeFilePath(path: string): FileLocation | null {
  const m = /^(\d{4}-\d{2}-\d{2})\/([a-z_]+)\/(?:(\d{8})_(\d+)\.json|(changes\.json))$/.exec(path);
  if (!m) return null;
  if (m[5]) return { kind: "shared", date: m[1]!, type: m[2]! };
  return { kind: "own", date: m[1]!, type: m[2]!, taxId: m[3]!, seq: Number(m[4]) };
}

/** The change as the changes endpoint lists it, with the two fields the guidance mentions. */
export function changedItem(change: Change, fileBaseUrl: string): Record<string, unknown> {
  const isCompany = change.type === "companies";
  return {
    change: change.date,
    tax_id: change.tax_id,
    chapter: change.chapter,
    changed_headings: change.headings,
    path: `${fileBaseUrl}/${changeFilePath(change)}`,
    change_type: isCompany ? "mklk" : change.type,
    heading_types: isCompany ? change.headings : [],
  };
}

/**
 * The registry's change history. Generated changes are a pure function of (seed, business,
 * month), so any interval of any business can be produced on demand; changes added through the
 * admin route or the in-process API are kept beside them.
 */
import { fromEpochDay, toEpochDay } from "../dates.ts";
import type { Business, BusinessDirectory } from "./businesses.ts";
import type { BusinessType } from "./identifiers.ts";
import { mix, Rng } from "./random.ts";

/** One change of one business on one day; `seq` tells apart several changes of that day. */
export interface Change {
  tax_id: string;
  type: BusinessType;
  date: string;
  seq: number;
  chapter: string;
  headings: string[];
}

// Chapters of the change records and the headings each may change, by business type.
const CHAPTERS: Record<BusinessType, ReadonlyArray<readonly [string, readonly string[]]>> = {
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

// Record field that holds each heading's value, for the old/new values of a change file.
const HEADING_FIELDS: Record<string, keyof Business> = {
  long_name: "full_name",
  short_name: "short_name",
  address: "address",
  status: "status_code",
  representatives: "representatives",
  bank_accounts: "bank_accounts",
  main_activities: "main_activities",
};

// Sequence numbers of explicitly added changes start here, clear of generated ones.
const EXPLICIT_SEQ_BASE = 100;

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

export class ChangeHistory {
  private readonly explicit = new Map<string, Change[]>();

  constructor(
    private readonly seed: number,
    private readonly directory: BusinessDirectory,
    private readonly perMonth: number,
  ) {}

  /** Changes of one business dated within [from, to], in date and sequence order. */
  between(business: Business, from: string, to: string): Change[] {
    const found: Change[] = [];
    for (const { year, month } of monthsCovering(from, to)) {
      for (const change of this.ofMonth(business, year, month)) {
        if (change.date >= from && change.date <= to) found.push(change);
      }
    }
    for (const change of this.explicit.get(business.tax_id) ?? []) {
      if (change.date >= from && change.date <= to) found.push(change);
    }
    return found.sort((a, b) => (a.date === b.date ? a.seq - b.seq : a.date < b.date ? -1 : 1));
  }

  private ofMonth(business: Business, year: number, month: number): Change[] {
    const rng = new Rng(this.seed, 201, business.index, year * 12 + month);
    const firstDay = toEpochDay(`${year}-${String(month).padStart(2, "0")}-01`);
    const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
    const drawn = Array.from({ length: poisson(rng, this.perMonth) }, () => {
      const [chapter, headings] = rng.pick(CHAPTERS[business.type]);
      const first = rng.pick(headings);
      const second = rng.chance(0.25) ? rng.pick(headings) : first;
      return {
        date: fromEpochDay(firstDay + rng.int(daysInMonth)),
        chapter,
        headings: first === second ? [first] : [first, second],
      };
    });
    drawn.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    const changes: Change[] = [];
    let seq = 0;
    drawn.forEach((d, i) => {
      seq = i > 0 && drawn[i - 1]!.date === d.date ? seq + 1 : 1;
      if (d.date > business.founded_at) {
        changes.push({ tax_id: business.tax_id, type: business.type, seq, ...d });
      }
    });
    return changes;
  }

  /** Records a change beside the generated ones (tests and demos use it for known content). */
  add(business: Business, date: string, chapter: string, headings: string[]): Change {
    const list = this.explicit.get(business.tax_id) ?? [];
    const seq = EXPLICIT_SEQ_BASE + list.filter((c) => c.date === date).length;
    const change: Change = { tax_id: business.tax_id, type: business.type, date, seq, chapter, headings };
    list.push(change);
    this.explicit.set(business.tax_id, list);
    return change;
  }

  /** The change a file name denotes, or null. */
  find(business: Business, date: string, seq: number): Change | null {
    return this.between(business, date, date).find((c) => c.seq === seq) ?? null;
  }

  /** Content of the change file: the change and each heading's old and new value. */
  fileContent(business: Business, change: Change): Record<string, unknown> {
    const day = toEpochDay(change.date);
    const before = this.directory.get(business.index, mix(this.seed, day, change.seq, 1));
    const after = this.directory.get(business.index, mix(this.seed, day, change.seq, 2));
    return {
      tax_id: change.tax_id,
      business_form: change.type,
      date: change.date,
      chapter: change.chapter,
      changed_headings: change.headings,
      changes: change.headings.map((heading) => {
        const field = HEADING_FIELDS[heading];
        return {
          heading,
          old_value: field ? (before[field] ?? null) : null,
          new_value: field ? (after[field] ?? null) : null,
        };
      }),
    };
  }
}

/** Relative file location of a change: `<date>/<business_form>/<file_name>`. */
export function changeFilePath(change: Change): string {
  return `${change.date}/${change.type}/${change.tax_id}_${change.seq}.json`;
}

/** Parses a relative file location back into its parts, or null when it has another shape. */
export function parseChangeFilePath(
  path: string,
): { date: string; type: string; taxId: string; seq: number } | null {
  const m = /^(\d{4}-\d{2}-\d{2})\/([a-z_]+)\/(\d{8})_(\d+)\.json$/.exec(path);
  return m ? { date: m[1]!, type: m[2]!, taxId: m[3]!, seq: Number(m[4]) } : null;
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

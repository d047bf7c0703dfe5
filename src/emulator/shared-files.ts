/**
 * Shared change files: one file per business form and day holding the changes of several
 * businesses, each entry naming its business and chapter, in an order that is not event order.
 *
 * The registry's file would hold every business of the form that changed that day. Finding
 * those means generating the day for the whole register, so the emulator bounds a file to the
 * businesses it can name cheaply: every business any list has watched since that day or earlier
 * (their months are grouped by day once per month and kept), a few bystanders drawn for the day
 * (changes of businesses nobody watches, so a client sees entries that are not its own), and
 * the changes added as shared. A request costs the members of its day, never the register.
 */
import { maxDate, toEpochDay } from "../dates.ts";
import type { Business, BusinessDirectory } from "./businesses.ts";
import type { Change, ChangeHistory } from "./changes.ts";
import type { HeadingValues } from "./heading-values.ts";
import type { BusinessType } from "./identifiers.ts";
import { hashText, mix, Rng } from "./random.ts";
import type { WatchLists } from "./watch-lists.ts";

// Register positions drawn per form and day for bystanders; about one in ten changed that day.
const BYSTANDER_DRAWS = 16;
// Months of watched businesses grouped by day, kept at once.
const MONTHS_KEPT = 6;

interface Member {
  business: Business;
  change: Change;
}

export class SharedFiles {
  /** month (YYYY-MM) -> its days -> generated changes of watched businesses that day. */
  private readonly watchedMonths = new Map<string, { version: number; days: Map<string, Member[]> }>();

  constructor(
    private readonly seed: number,
    private readonly directory: BusinessDirectory,
    private readonly history: ChangeHistory,
    private readonly values: HeadingValues,
    private readonly lists: WatchLists,
  ) {}

  forget(): void {
    this.watchedMonths.clear();
  }

  /** The shared file of a form and day, or null when no change points at it. */
  content(type: string, date: string): Record<string, unknown> | null {
    const members = this.members(type, date);
    if (members.length === 0) return null;
    // Sorted first, so the content depends on the seed alone, not on the order items were added.
    members.sort((a, b) =>
      a.change.tax_id !== b.change.tax_id
        ? a.change.tax_id < b.change.tax_id
          ? -1
          : 1
        : a.change.order - b.change.order,
    );
    const entries = members.flatMap(({ business, change }) =>
      this.values.entries(business, change).map((e) => ({
        tax_id: change.tax_id,
        chapter: change.chapter,
        heading: e.heading,
        ...("old_value" in e ? { old_value: e.old_value } : {}),
        new_value: e.new_value,
        ...(e.label !== undefined ? { label: e.label } : {}),
      })),
    );
    shuffle(entries, new Rng(this.seed, 702, toEpochDay(date), hashText(type)));
    return { date, business_form: type, changes: entries };
  }

  private members(type: string, date: string): Member[] {
    const found = new Map<string, Member>();
    const keep = (m: Member) => {
      if (m.change.type === type && m.change.shared) found.set(`${m.change.tax_id}|${m.change.order}`, m);
    };
    for (const change of this.history.addedOn(date)) {
      const business = this.directory.byTaxId(change.tax_id);
      if (business) keep({ business, change });
    }
    if (this.history.currentWorld().sharedFiles) {
      for (const m of this.watchedOn(date)) keep(m);
      for (const business of this.bystanders(type as BusinessType, date)) {
        for (const change of this.history.between(business, date, date)) keep({ business, change });
      }
    }
    return [...found.values()];
  }

  /** Generated changes of watched businesses on `date`, from the month's grouping. */
  private watchedOn(date: string): Member[] {
    const month = date.slice(0, 7);
    const version = this.lists.everWatchedVersion();
    let grouped = this.watchedMonths.get(month);
    if (!grouped || grouped.version !== version) {
      grouped = { version, days: this.groupMonth(month) };
      this.watchedMonths.delete(month);
      if (this.watchedMonths.size >= MONTHS_KEPT)
        this.watchedMonths.delete(this.watchedMonths.keys().next().value!);
      this.watchedMonths.set(month, grouped);
    }
    return grouped.days.get(date) ?? [];
  }

  private groupMonth(month: string): Map<string, Member[]> {
    const days = new Map<string, Member[]>();
    const [first, last] = [`${month}-01`, `${month}-31`];
    for (const [taxId, activeFrom] of this.lists.everWatched()) {
      if (activeFrom > last) continue;
      const business = this.directory.byTaxId(taxId);
      if (!business) continue;
      for (const change of this.history.between(business, maxDate(activeFrom, first), last)) {
        if (change.explicit) continue;
        const day = days.get(change.date) ?? [];
        day.push({ business, change });
        days.set(change.date, day);
      }
    }
    return days;
  }

  /** Businesses of the form drawn for the day, whether or not anyone watches them. */
  private bystanders(type: BusinessType, date: string): Business[] {
    const found: Business[] = [];
    const count = this.directory.count;
    for (let j = 0; j < BYSTANDER_DRAWS; j++) {
      const index = mix(this.seed, 701, toEpochDay(date), j) % count;
      if (this.directory.ids.place(index).type === type) found.push(this.directory.get(index));
    }
    return found;
  }
}

function shuffle<T>(items: T[], rng: Rng): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}

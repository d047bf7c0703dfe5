/**
 * The registry the emulator pretends to be: its data, lists, history and clock, and the settings
 * its endpoints obey. HTTP handling lives elsewhere; this is what the handlers read and change.
 */
import { isValidDate } from "../dates.ts";
import { addedChange, type ExplicitChange } from "./added-changes.ts";
import { type Business, BusinessDirectory } from "./businesses.ts";
import { type Change, ChangeHistory } from "./changes.ts";
import { activationDate, lastLoadedDay, registryLocalTime, type SimulatedClock } from "./clock.ts";
import { HeadingValues } from "./heading-values.ts";
import { NameRecords } from "./name-records.ts";
import { mix } from "./random.ts";
import { SharedFiles } from "./shared-files.ts";
import { type WatchList, WatchLists } from "./watch-lists.ts";
import type { World } from "./world.ts";

export type { ExplicitChange } from "./added-changes.ts";

export interface RegistrySettings {
  apiKey: string;
  rateLimit: number;
  fileRateLimit: number;
  latencyMs: number;
  searchMonthlyQuota: number;
  changesFromParam: string;
  changesToParam: string;
  /** Path prefix the API is served under ("" for none). */
  basePath: string;
  /** Whether /v2/docs and /v2/openapi.json are served. */
  describe: boolean;
}

// Businesses indexed per slice of the background warm-up: a few milliseconds, so requests barely wait.
// A present name is derived from the history (about 0.2 ms a business), a founding name is not.
const WARM_SLICE = { founding: 500, current: 20 };

export interface ListSnapshot {
  list_key: string;
  list_name: string;
  created_at: string;
  items: Array<{ tax_id: string; added_at: string; active_from: string }>;
}

export interface SeedList {
  name: string;
  createdAt: string;
  taxIds?: string[];
  size?: number;
  addedAt?: string;
}

export class Registry {
  readonly directory: BusinessDirectory;
  readonly history: ChangeHistory;
  readonly values: HeadingValues;
  readonly sharedFiles: SharedFiles;
  readonly lists: WatchLists;
  /** Absolute base of change file paths; known once the file server listens. */
  fileBaseUrl = "";
  private readonly foundingNames: NameRecords;
  /** With `currentRecords`: the names shown on one loaded day, under one world and set of added changes. */
  private currentNames: { key: string; names: NameRecords } | null = null;
  // Bumped whenever the names shown on a day may change: a world switch or an added change.
  private generation = 0;

  constructor(
    readonly seed: number,
    businesses: number,
    changesPerMonth: number,
    limits: { maxListSize: number; totalCap: number },
    readonly clock: SimulatedClock,
    readonly settings: RegistrySettings,
    world: World,
  ) {
    this.directory = new BusinessDirectory(seed, businesses);
    this.history = new ChangeHistory(seed, changesPerMonth, world);
    this.values = new HeadingValues(seed, this.directory, this.history);
    // Budget organisations are searchable but outside the watch service's coverage.
    this.lists = new WatchLists(seed, limits, (taxId) => {
      const business = this.directory.byTaxId(taxId);
      return business !== null && business.type !== "budget_orgs";
    });
    this.sharedFiles = new SharedFiles(seed, this.directory, this.history, this.values, this.lists);
    this.foundingNames = new NameRecords(this.directory, (i) => {
      const { fullName, shortName } = this.directory.naming(i);
      return shortName === undefined ? [fullName] : [fullName, shortName];
    });
  }

  world(): World {
    return this.history.currentWorld();
  }

  /** Switches the world at run time; every change and value is derived again under it. */
  setWorld(world: World): void {
    this.history.setWorld(world);
    this.values.forget();
    this.sharedFiles.forget();
    this.generation += 1;
  }

  /**
   * The record the search interface shows: with `currentRecords`, each heading holds the new
   * value of its latest change loaded by now; otherwise the founding record. A former sole
   * proprietor has no changes of its own.
   */
  current(business: Business): Business {
    if (!this.world().currentRecords || business.twin) return business;
    return this.values.recordOn(business, lastLoadedDay(this.clock.now()));
  }

  /**
   * Companies whose current account equals `value` or starts with it. An account a test gave
   * need not encode its company, so the businesses with added changes are asked too.
   */
  byBankAccount(value: string): Business[] {
    const found = this.directory.byBankAccount(value, (b) => this.current(b));
    if (!this.world().currentRecords) return found;
    for (const taxId of this.history.addedTaxIds()) {
      const business = this.directory.byTaxId(taxId);
      if (!business || found.some((b) => b.tax_id === taxId)) continue;
      const accounts = this.current(business).bank_accounts;
      if (accounts?.some((a) => a.bank_account?.startsWith(value))) found.push(business);
    }
    return found;
  }

  /** Simulated date on the registry's wall clock. */
  today(): string {
    return registryLocalTime(this.clock.now()).date;
  }

  /**
   * Name search hits in data set order. With `currentRecords` a name matches the names the
   * records show (the latest loaded day's full and short names), never a former one.
   */
  searchNames(query: string, max: number): Business[] {
    return this.nameRecords().search(query, max);
  }

  /**
   * Builds the name index in force in slices between requests, so a large data set starts at
   * once and its first name search does not pay the whole cost. Returns a function that stops it.
   */
  warmNameIndex(): () => void {
    let stopped = false;
    const step = () => {
      const names = this.nameRecords();
      if (stopped || names.complete) return;
      names.fillNext(names === this.foundingNames ? WARM_SLICE.founding : WARM_SLICE.current);
      setImmediate(step);
    };
    setImmediate(step);
    return () => {
      stopped = true;
    };
  }

  /** The founding-name index, or with `currentRecords` the index of the names shown today. */
  private nameRecords(): NameRecords {
    if (!this.world().currentRecords) return this.foundingNames;
    const day = lastLoadedDay(this.clock.now());
    const key = `${this.generation}|${day}`;
    if (this.currentNames?.key !== key) {
      // Only the name headings are derived: a whole current record costs several times more. A
      // type without a short name would walk back to its founding looking for one.
      const names = new NameRecords(this.directory, (i) => {
        const business = this.directory.get(i);
        const headings =
          business.short_name !== undefined || this.history.addedTouches(business, "short_name")
            ? ["long_name", "short_name"]
            : ["long_name"];
        const shown = headings.map((heading) => this.values.valueOn(business, heading, day));
        return shown.filter((name): name is string => typeof name === "string");
      });
      this.currentNames = { key, names };
    }
    return this.currentNames.names;
  }

  /** Every list with its items and the day each item became (or becomes) active. */
  snapshot(): ListSnapshot[] {
    return this.lists.all().map((list) => ({
      list_key: list.list_key,
      list_name: list.list_name,
      created_at: list.created_at,
      items: [...list.items.values()].map((item) => ({ ...item })),
    }));
  }

  /** Records a change of a known business, with the content the input gives. */
  addChange(input: ExplicitChange): Change {
    const taxId = input?.tax_id;
    const business = typeof taxId === "string" ? this.directory.byTaxId(taxId) : null;
    if (!business) throw new Error(`no business has tax_id "${String(taxId)}"`);
    const change = this.history.add(business, addedChange(input, this.world().sharedFiles));
    // The history of that business now runs through the added change.
    this.values.forget();
    this.generation += 1;
    return change;
  }

  /** Businesses for tests to pick identifiers from, spread over the data set. */
  sample(filter: { type?: string; limit?: number; shared?: boolean } = {}): Business[] {
    const limit = Math.min(filter.limit ?? 20, 1000);
    const found: Business[] = [];
    for (let i = 0; i < this.directory.count && found.length < limit; i++) {
      if (filter.shared && !this.directory.ids.hasTwin(i)) continue;
      for (const b of filter.shared ? this.directory.withTaxBase(i) : [this.directory.get(i)]) {
        if ((filter.type === undefined || b.type === filter.type) && found.length < limit) found.push(b);
      }
    }
    return found;
  }

  /** Creates a list with items added in the past, so its history can be queried at once. */
  seedList(seed: SeedList): WatchList {
    const created = dayAndActivation(seed.createdAt, "createdAt");
    const added = seed.addedAt === undefined ? created : dayAndActivation(seed.addedAt, "addedAt");
    if (!seed.name) throw new Error("a seeded list needs a name");
    const taxIds = seed.taxIds ?? this.watchableSample(seed.size ?? 0, seed.name);
    const list = this.lists.create(seed.name, created.day);
    const { failed } = this.lists.add(list, taxIds, added.day, added.activeFrom);
    if (failed.length > 0) {
      this.lists.delete(list.list_key);
      const shown = failed.slice(0, 5).map((f) => `${f.tax_id} (${f.code})`);
      throw new Error(`seeded list "${seed.name}" refused ${failed.length} tax id(s): ${shown.join(", ")}`);
    }
    return list;
  }

  /** `size` distinct watchable tax ids, starting at a place chosen by the seed and the list name. */
  private watchableSample(size: number, name: string): string[] {
    const count = this.directory.count;
    const start = mix(this.seed, 401, name.length, name.charCodeAt(0) || 0) % count;
    const taxIds: string[] = [];
    for (let k = 0; k < count && taxIds.length < size; k++) {
      const index = (start + k) % count;
      if (this.directory.ids.place(index).type !== "budget_orgs")
        taxIds.push(this.directory.ids.taxId(index));
    }
    if (taxIds.length < size) throw new Error(`only ${taxIds.length} watchable businesses exist`);
    return taxIds;
  }
}

/** A seed date: `YYYY-MM-DD` counts as added before that morning's load; an instant is exact. */
function dayAndActivation(value: string, field: string): { day: string; activeFrom: string } {
  if (isValidDate(value)) return { day: value, activeFrom: value };
  const instant = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(instant.getTime())) {
    throw new Error(`${field} must be YYYY-MM-DD or an ISO instant, not "${value}"`);
  }
  return { day: registryLocalTime(instant).date, activeFrom: activationDate(instant) };
}

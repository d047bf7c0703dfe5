/**
 * Watch lists and their items, with the per-item outcome codes of the bulk endpoints. Pure state:
 * the caller supplies dates, so the rules are testable without a clock or HTTP.
 */
import { taxIdProblem } from "./check-digits.ts";
import { mix } from "./random.ts";

export interface WatchItem {
  tax_id: string;
  /** Simulated date of adding. */
  added_at: string;
  /** First day whose changes are reported: the date of the first data load after adding. */
  active_from: string;
}

export interface WatchList {
  list_key: string;
  list_name: string;
  created_at: string;
  items: Map<string, WatchItem>;
}

export interface BulkResult {
  success: string[];
  failed: Array<{ tax_id: string; code: 404 | 409 | 422 | 429 }>;
}

export interface WatchListLimits {
  maxListSize: number;
  totalCap: number;
}

export class WatchLists {
  private readonly lists = new Map<string, WatchList>();
  private readonly firstActive = new Map<string, string>();
  private created = 0;
  private watched = 0;
  private everVersion = 0;

  constructor(
    private readonly seed: number,
    private readonly limits: WatchListLimits,
    /** Whether the watch database knows the tax base number (the search register may know more). */
    private readonly watchable: (taxId: string) => boolean,
  ) {}

  create(name: string, createdAt: string): WatchList {
    let key: string;
    // Keys look random but follow from the seed and the creation count, so runs are repeatable.
    do {
      this.created += 1;
      key = `wl_${mix(this.seed, 301, this.created).toString(16).padStart(8, "0")}${mix(
        this.seed,
        302,
        this.created,
      )
        .toString(16)
        .padStart(8, "0")}`;
    } while (this.lists.has(key));
    const list: WatchList = { list_key: key, list_name: name, created_at: createdAt, items: new Map() };
    this.lists.set(key, list);
    return list;
  }

  get(key: string): WatchList | undefined {
    return this.lists.get(key);
  }

  all(): WatchList[] {
    return [...this.lists.values()];
  }

  totalWatched(): number {
    return this.watched;
  }

  /**
   * Every tax id any list ever watched, with the first day any list reported its changes.
   * Removing an item does not forget it: shared files of past days keep their content.
   */
  everWatched(): ReadonlyMap<string, string> {
    return this.firstActive;
  }

  /** Grows whenever everWatched() gains an entry or an earlier day. */
  everWatchedVersion(): number {
    return this.everVersion;
  }

  delete(key: string): void {
    const list = this.lists.get(key);
    if (!list) return;
    this.watched -= list.items.size;
    this.lists.delete(key);
  }

  /** Adds each tax id or says why not: 422 cannot exist, 404 unknown, 409 already there, 429 full. */
  add(list: WatchList, taxIds: readonly string[], addedAt: string, activeFrom: string): BulkResult {
    const result: BulkResult = { success: [], failed: [] };
    for (const taxId of taxIds) {
      const code = this.refusal(list, taxId);
      if (code !== null) {
        result.failed.push({ tax_id: taxId, code });
        continue;
      }
      list.items.set(taxId, { tax_id: taxId, added_at: addedAt, active_from: activeFrom });
      this.watched += 1;
      const known = this.firstActive.get(taxId);
      if (known === undefined || activeFrom < known) {
        this.firstActive.set(taxId, activeFrom);
        this.everVersion += 1;
      }
      result.success.push(taxId);
    }
    return result;
  }

  private refusal(list: WatchList, taxId: string): 404 | 409 | 422 | 429 | null {
    if (taxIdProblem(taxId) !== null) return 422;
    if (!this.watchable(taxId)) return 404;
    if (list.items.has(taxId)) return 409;
    if (list.items.size >= this.limits.maxListSize || this.watched >= this.limits.totalCap) return 429;
    return null;
  }

  /** Removes each tax id; 422 when it cannot exist, 409 when it is not on the list. */
  remove(list: WatchList, taxIds: readonly string[]): BulkResult {
    const result: BulkResult = { success: [], failed: [] };
    for (const taxId of taxIds) {
      if (taxIdProblem(taxId) !== null) result.failed.push({ tax_id: taxId, code: 422 });
      else if (!list.items.delete(taxId)) result.failed.push({ tax_id: taxId, code: 409 });
      else {
        this.watched -= 1;
        result.success.push(taxId);
      }
    }
    return result;
  }
}

/** A list as the watch interface shows it. */
export function listView(list: WatchList): Record<string, unknown> {
  return {
    list_key: list.list_key,
    list_name: list.list_name,
    created_at: list.created_at,
    watch_count: list.items.size,
  };
}

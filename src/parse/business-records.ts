/**
 * How search records are kept per tax base number (pure). A base number that belonged to two
 * business types (a company converted to a sole proprietor; docs/registry.md, "Search
 * interface") has two records; both are kept, and the newer business is the one shown as "the"
 * record.
 */
import type { BusinessRecord } from "../api/search-schemas.ts";
import { taxBaseOf } from "../taxid.ts";

/** Records grouped by the tax base number of their `tax_number`; records without one are returned apart. */
export function groupByTaxBase(records: readonly BusinessRecord[]): {
  groups: Map<string, BusinessRecord[]>;
  unkeyed: BusinessRecord[];
} {
  const groups = new Map<string, BusinessRecord[]>();
  const unkeyed: BusinessRecord[] = [];
  for (const record of records) {
    const base = record.tax_number ? taxBaseOf(record.tax_number) : undefined;
    if (!base) {
      unkeyed.push(record);
      continue;
    }
    const group = groups.get(base) ?? [];
    group.push(record);
    groups.set(base, group);
  }
  return { groups, unkeyed };
}

/** Which business a record describes: its type and registration number, else its tax number and name. */
export function recordIdentity(record: BusinessRecord): string {
  if (record.type && record.registration_number) return `${record.type}|${record.registration_number}`;
  return `${record.type ?? ""}|${record.tax_number ?? ""}|${record.full_name ?? ""}`;
}

/**
 * Stored records updated with fresh ones: a fresh record replaces the stored record of the same
 * business, stored records of other businesses stay. Order: newest business first.
 */
export function mergeRecords(
  stored: readonly BusinessRecord[],
  fresh: readonly BusinessRecord[],
): BusinessRecord[] {
  const byIdentity = new Map<string, BusinessRecord>();
  for (const record of stored) byIdentity.set(recordIdentity(record), record);
  for (const record of fresh) byIdentity.set(recordIdentity(record), record);
  return [...byIdentity.values()].sort(newestFirst);
}

/**
 * The newest business: latest founding date first (the converted business is founded after the one
 * it came from), then an operating one before a ceased one.
 */
export function newestFirst(a: BusinessRecord, b: BusinessRecord): number {
  const byFounding = (b.founded_at ?? "").localeCompare(a.founded_at ?? "");
  if (byFounding !== 0) return byFounding;
  return rankStatus(a.status_code) - rankStatus(b.status_code);
}

function rankStatus(code: number | null | undefined): number {
  if (code === 1) return 0;
  if (code === 2) return 1;
  return 2;
}

/**
 * Keeping search results: fresh records are merged per tax base number with the cached ones
 * (src/parse/business-records.ts decides which are kept), written to `businesses`, and the newest record
 * of each number feeds its business profile, all in one transaction.
 */
import type { BusinessRecord } from "../api/search-schemas.ts";
import { registryDay } from "../dates.ts";
import type { Sql } from "../db/connect.ts";
import { countDaysIn } from "../db/time-zone.ts";
import { groupByTaxBase, mergeRecords } from "./business-records.ts";
import { factsFromRecord } from "./profile-facts.ts";
import { writeProfiles } from "./sql/business-profiles.ts";
import { lockStoredRecords, writeBusinesses } from "./sql/businesses.ts";

export interface SavedBusinesses {
  /** Tax base numbers written. */
  taxIds: string[];
  /** Records whose tax_number holds no tax base number; not stored. */
  skipped: BusinessRecord[];
}

/**
 * Merges fresh search records into the cache, in one transaction; their profile facts hold from
 * today in the registry's calendar (`timeZone`, REGWATCH_REGISTRY_TZ).
 */
export async function saveBusinesses(
  sql: Sql,
  records: readonly BusinessRecord[],
  timeZone: string,
): Promise<SavedBusinesses> {
  const { groups, unkeyed } = groupByTaxBase(records);
  if (groups.size === 0) return { taxIds: [], skipped: unkeyed };
  const taxIds = [...groups.keys()].sort();
  await sql.begin(async (tx) => {
    // The history of listed accounts (migration 0016's trigger) compares the days of reads and
    // changes: in the registry's calendar, as the payment check reads them.
    await countDaysIn(tx, timeZone);
    const stored = await lockStoredRecords(tx, taxIds);
    const merged = taxIds.map((taxId) => ({
      taxId,
      records: mergeRecords((stored.get(taxId) ?? []) as BusinessRecord[], groups.get(taxId) ?? []),
    }));
    await writeBusinesses(tx, merged);
    const today = registryDay(timeZone);
    await writeProfiles(
      tx,
      merged.map(({ taxId, records }) =>
        factsFromRecord(taxId, records[0] as Record<string, unknown>, today),
      ),
    );
  });
  return { taxIds, skipped: unkeyed };
}

/**
 * The `businesses` cache: search results keyed by tax base number. `records` holds every business
 * known for the number (two when it changed business type), `record` the newest of them, and the
 * flat columns repeat that record's main fields for BI.
 */
import type { BusinessRecord } from "../api/search-schemas.ts";
import { factsFromRecord, todayUtc } from "../parse/profile-facts.ts";
import { groupByTaxBase, mergeRecords } from "../search/records.ts";
import { writeProfiles } from "./business-profiles.ts";
import type { Sql } from "./connect.ts";

export interface SavedBusinesses {
  /** Tax base numbers written. */
  taxIds: string[];
  /** Records whose tax_number holds no tax base number; not stored. */
  skipped: BusinessRecord[];
}

/** Merges fresh search records into the cache, in one transaction. */
export async function saveBusinesses(sql: Sql, records: readonly BusinessRecord[]): Promise<SavedBusinesses> {
  const { groups, unkeyed } = groupByTaxBase(records);
  if (groups.size === 0) return { taxIds: [], skipped: unkeyed };
  const taxIds = [...groups.keys()].sort();
  await sql.begin(async (tx) => {
    // Locked so that two lookups of the same business merge one after the other, losing nothing.
    const stored = await tx<{ tax_id: string; records: BusinessRecord[] }[]>`
      select tax_id, records from regwatch.businesses
      where tax_id = any(${taxIds}::text[]) order by tax_id for update`;
    const storedById = new Map(stored.map((row) => [row.tax_id, row.records]));
    const mergedById = new Map<string, Record<string, unknown>>();
    const rows = taxIds.map((taxId) => {
      const all = mergeRecords(storedById.get(taxId) ?? [], groups.get(taxId) ?? []);
      const latest = all[0]!;
      mergedById.set(taxId, latest as Record<string, unknown>);
      return {
        tax_id: taxId,
        type: latest.type ?? null,
        status_code: latest.status_code ?? null,
        full_name: latest.full_name ?? null,
        short_name: latest.short_name ?? null,
        address: latest.address ?? null,
        tax_number: latest.tax_number,
        registration_number: latest.registration_number ?? null,
        record: tx.json(latest as never),
        records: tx.json(all as never),
      };
    });
    await tx`
      insert into regwatch.businesses ${tx(rows)}
      on conflict (tax_id) do update set
        type = excluded.type, status_code = excluded.status_code, full_name = excluded.full_name,
        short_name = excluded.short_name, address = excluded.address, tax_number = excluded.tax_number,
        registration_number = excluded.registration_number, record = excluded.record,
        records = excluded.records, fetched_at = now()`;
    await writeProfiles(
      tx,
      taxIds.map((id) => factsFromRecord(id, mergedById.get(id)!, todayUtc())),
    );
  });
  return { taxIds, skipped: unkeyed };
}

export interface StoredBusiness {
  taxId: string;
  record: BusinessRecord;
  records: BusinessRecord[];
  fetchedAt: Date;
}

export async function loadBusiness(sql: Sql, taxId: string): Promise<StoredBusiness | undefined> {
  const [row] = await sql<StoredBusiness[]>`
    select tax_id as "taxId", record, records, fetched_at as "fetchedAt"
    from regwatch.businesses where tax_id = ${taxId}`;
  return row;
}

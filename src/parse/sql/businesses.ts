/**
 * The `businesses` cache: search results keyed by tax base number. `records` holds every business
 * known for the number (two when it changed business type), `record` the newest of them, and the
 * flat columns repeat that record's main fields for BI. Which records are kept is decided above
 * (src/parse/save-businesses.ts); these are the reads and writes inside its transaction.
 */
import type { Tx } from "../../db/connect.ts";
import type { BusinessRecordRow } from "../../db/rows.ts";

/**
 * The stored records of the given tax base numbers, locked so that two lookups of the same
 * business merge one after the other, losing nothing.
 */
export async function lockStoredRecords(
  tx: Tx,
  taxIds: readonly string[],
): Promise<Map<string, BusinessRecordRow[]>> {
  const stored = await tx<{ tax_id: string; records: BusinessRecordRow[] }[]>`
    select tax_id, records from ${tx.t.businesses}
    where tax_id = any(${taxIds as string[]}::text[]) order by tax_id for update`;
  return new Map(stored.map((row) => [row.tax_id, row.records]));
}

/** Every record known for one tax base number, newest business first. */
export interface BusinessRecords {
  taxId: string;
  records: readonly BusinessRecordRow[];
}

/** Writes (inserts or replaces) the cached records of each tax base number. */
export async function writeBusinesses(tx: Tx, businesses: readonly BusinessRecords[]): Promise<void> {
  if (businesses.length === 0) return;
  const rows = businesses.map(({ taxId, records }) => {
    const latest = records[0]!;
    return {
      tax_id: taxId,
      type: latest.type ?? null,
      status_code: latest.status_code ?? null,
      full_name: latest.full_name ?? null,
      short_name: latest.short_name ?? null,
      address: latest.address ?? null,
      tax_number: latest.tax_number ?? null,
      registration_number: latest.registration_number ?? null,
      record: tx.json(latest as never),
      records: tx.json(records as never),
    };
  });
  await tx`
    insert into ${tx.t.businesses} ${tx(rows)}
    on conflict (tax_id) do update set
      type = excluded.type, status_code = excluded.status_code, full_name = excluded.full_name,
      short_name = excluded.short_name, address = excluded.address, tax_number = excluded.tax_number,
      registration_number = excluded.registration_number, record = excluded.record,
      records = excluded.records, fetched_at = now()`;
}

/**
 * The shapes db/ stores, declared here so that db/ depends on nothing above it. The registry's
 * parsed answers (src/api/*-schemas.ts) fit them as they are; the engine hands them down.
 */

/** One changed item of a changes answer, after validation. */
export interface ChangeItemRow {
  change: string;
  tax_id: string;
  chapter: string;
  changed_headings: string[];
  path: string;
}

/** A checked changed item with the object it was received as (for what `changes.raw` keeps). */
export interface ReceivedChangeRow {
  item: ChangeItemRow;
  raw: Record<string, unknown>;
}

/** A changed item set aside because it cannot be stored as received. */
export interface InvalidItemRow {
  /** Position of the item in the answer. */
  index: number;
  /** The item's date and tax id as received (possibly themselves the invalid values). */
  changeDate: string;
  taxId: string;
  reason: string;
  raw: unknown;
}

/** A watch list as the registry lists it. */
export interface WatchListRow {
  list_key: string;
  list_name: string;
  created_at?: string | null;
  watch_count?: number | null;
}

/** One tax id on a watch list. */
export interface WatchedItemRow {
  tax_id: string;
  added_at?: string | null;
}

/** A search record as cached in `businesses`: the fields the flat columns repeat, and the rest. */
export interface BusinessRecordRow {
  type?: string | null;
  status_code?: number | null;
  full_name?: string | null;
  short_name?: string | null;
  address?: string | null;
  tax_number?: string | null;
  registration_number?: string | null;
  [field: string]: unknown;
}

/** A change-file body as stored in change_files: JSON when it parsed as JSON, else bytes. */
export interface StoredBodyRow {
  path: string;
  contentType: string | null;
  json: unknown;
  bytes: Buffer | null;
}

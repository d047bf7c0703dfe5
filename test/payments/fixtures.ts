/**
 * What the payment tests seed: valid tax base numbers and accounts, search records read on a
 * given day, changes with their files and values in the shapes sync and the parser write them,
 * and batch files. Dates are days relative to the real today (payments check judges against it).
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { addDays, localDateTime } from "../../src/dates.ts";
import type { Sql } from "../../src/db/connect.ts";
import { partCheckDigit } from "../../src/payments/accounts.ts";
import { checkDigit } from "../../src/taxid.ts";

export const today = localDateTime(new Date(), "Europe/Budapest").date;
export const daysAgo = (n: number): string => addDays(today, -n);

/** A valid tax base number from seven digits. */
export function taxBase(seven: number): string {
  const digits = String(seven).padStart(7, "0");
  return `${digits}${checkDigit(digits)}`;
}

/** A valid 24-digit account in the registry's grouping, different for every n. */
export function account(n: number): string {
  const bank = "1177301";
  const first = `${bank}${partCheckDigit(bank)}`;
  const body = String(n).padStart(15, "0");
  return `${first}-${body.slice(0, 8)}-${body.slice(8)}${partCheckDigit(body)}`;
}

/** A search record of a company as `lookup` keeps it, read at noon of `readOn`. */
export async function seedRecord(
  sql: Sql,
  taxId: string,
  accounts: readonly string[],
  readOn: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  const record = {
    type: "companies",
    status_code: 1,
    full_name: `Supplier ${taxId} Kft.`,
    tax_number: `${taxId}-2-41`,
    bank_accounts: accounts.map((bank_account) => ({ bank_account })),
    ...extra,
  };
  await sql`
    insert into regwatch.businesses (tax_id, type, status_code, full_name, tax_number, registration_number,
                                     record, records, fetched_at)
    values (${taxId}, 'companies', 1, ${record.full_name}, ${record.tax_number},
            ${(extra.registration_number as string | undefined) ?? null},
            ${sql.json(record as never)}, ${sql.json([record] as never)}, ${`${readOn}T12:00:00Z`})
    on conflict (tax_id) do update set record = excluded.record, records = excluded.records,
      registration_number = excluded.registration_number, fetched_at = excluded.fetched_at`;
}

export async function watch(sql: Sql, listKey: string, ...taxIds: string[]): Promise<void> {
  await sql`
    insert into regwatch.watch_lists (list_key, list_name) values (${listKey}, ${`list ${listKey}`})
    on conflict do nothing`;
  for (const taxId of taxIds) {
    await sql`insert into regwatch.watched_items (list_key, tax_id) values (${listKey}, ${taxId})
              on conflict do nothing`;
  }
}

export interface SeededChange {
  taxId: string;
  day: string;
  /** change_files row: omitted for no row at all. */
  file?: { status: string; parseStatus?: string | null; lastError?: string; parseError?: string };
  /** change_values row of bank_accounts: omitted for none. */
  value?: { old: unknown; new: unknown; ambiguous?: boolean; dayOrder?: number | null };
  headings?: string[];
  chapter?: string;
  /** When regwatch first saw the change (default: now). */
  firstSeenAt?: string;
}

/** A change as sync stores it, with its file and (parsed) value as given; returns its id. */
export async function seedChange(sql: Sql, c: SeededChange): Promise<number> {
  const chapter = c.chapter ?? "2";
  const filePath = `https://files.example/${c.day}/${c.taxId}-${chapter}.json`;
  const [row] = await sql<{ id: number }[]>`
    insert into regwatch.changes (tax_id, change_date, chapter, path, changed_headings, raw, first_seen_at)
    values (${c.taxId}, ${c.day}, ${chapter}, ${filePath}, ${c.headings ?? ["bank_accounts"]},
            ${sql.json({})}, ${c.firstSeenAt ?? new Date().toISOString()})
    returning id::int as id`;
  const id = row!.id;
  if (c.file) {
    await sql`
      insert into regwatch.change_files (path, status, parse_status, last_error, parse_error, change_ids, newest_change)
      values (${filePath}, ${c.file.status}, ${c.file.parseStatus ?? null}, ${c.file.lastError ?? null},
              ${c.file.parseError ?? null}, ${[id]}, ${c.day})`;
  }
  if (c.value) {
    await sql`
      insert into regwatch.change_values (change_id, heading, tax_id, change_date, old_value, new_value, path,
                                          day_order, order_ambiguous)
      values (${id}, 'bank_accounts', ${c.taxId}, ${c.day}, ${sql.json(c.value.old as never)},
              ${c.value.new === null ? null : sql.json(c.value.new as never)}, ${filePath},
              ${c.value.ambiguous ? null : (c.value.dayOrder ?? 1)}, ${c.value.ambiguous ?? false})`;
  }
  return id;
}

export const accountList = (...accounts: string[]) => accounts.map((bank_account) => ({ bank_account }));

export async function writeBatch(dir: string, name: string, lines: string[]): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, `${lines.join("\n")}\n`);
  return file;
}

export interface JsonRow {
  line: number;
  verdict: string;
  detail: string;
  next_step: string | null;
  tax_id: string;
}

export interface JsonReport {
  flagged: boolean;
  online: { asked: number; notChecked: number } | null;
  rows: JsonRow[];
}

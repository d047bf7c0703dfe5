/**
 * A large payment batch and the registry data it is checked against, for the payments benchmark
 * and the 200,000-row tests: `seedPayees` stores search records of companies (as `lookup` keeps
 * them, through the businesses trigger), a watch list for most of them and recent account changes
 * for some; `writeLargeBatch` writes a bank export in Windows-1250 with Hungarian headers, `;`
 * separated, Hungarian amounts, where every shape of row occurs: paid to the registered account,
 * to another business's account, without a tax number (found by account), under another name,
 * with an amount that cannot be paid, with a reference a spreadsheet would run as a formula.
 */

import { once } from "node:events";
import { createWriteStream } from "node:fs";
import iconv from "iconv-lite";
import { addDays } from "../src/dates.ts";
import type { Sql } from "../src/db/connect.ts";
import { partCheckDigit } from "../src/payments/accounts.ts";
import { checkDigit } from "../src/taxid.ts";

export interface Payee {
  taxId: string;
  name: string;
  account: string;
}

const NAMES = [
  "Kővári Ügyvédi Iroda",
  "Őrségi Űrtechnika",
  "Széchenyi Gépgyártó",
  "Tiszai Vegyiművek",
  "Bükki Fűrésztelep",
];

function taxBase(seven: number): string {
  const digits = String(seven).padStart(7, "0");
  return `${digits}${checkDigit(digits)}`;
}

function account(n: number): string {
  const bank = "1177301";
  const body = String(n).padStart(15, "0");
  return `${bank}${partCheckDigit(bank)}-${body.slice(0, 8)}-${body.slice(8)}${partCheckDigit(body)}`;
}

/** `count` companies with one account each; 4 in 5 watched, 1 in 50 changed its account last week. */
export async function seedPayees(sql: Sql, count: number, today: string): Promise<Payee[]> {
  const payees = Array.from({ length: count }, (_, i) => ({
    taxId: taxBase(3_000_000 + i),
    name: `${NAMES[i % NAMES.length]} ${i} Kft.`,
    account: account(500_000 + i),
  }));
  const records = payees.map((p) => ({
    type: "companies",
    status_code: 1,
    full_name: p.name,
    tax_number: `${p.taxId}-2-41`,
    bank_accounts: [{ bank_account: p.account }],
  }));
  await sql`
    insert into regwatch.businesses (tax_id, type, status_code, full_name, tax_number, record, records, fetched_at)
    select left(r ->> 'tax_number', 8), 'companies', 1, r ->> 'full_name', r ->> 'tax_number', r,
           jsonb_build_array(r), ${`${addDays(today, -60)}T12:00:00Z`}::timestamptz
    from jsonb_array_elements(${sql.json(records as never)}) r`;
  await sql`insert into regwatch.watch_lists (list_key, list_name) values ('bench', 'suppliers') on conflict do nothing`;
  const watched = payees.filter((_, i) => i % 5 !== 0).map((p) => p.taxId);
  await sql`insert into regwatch.watched_items (list_key, tax_id) select 'bench', unnest(${watched}::text[])`;
  const changed = payees.filter((_, i) => i % 50 === 7);
  for (const [k, p] of changed.entries()) {
    const [row] = await sql<{ id: number }[]>`
      insert into regwatch.changes (tax_id, change_date, chapter, path, changed_headings, raw)
      values (${p.taxId}, ${addDays(today, -5)}, '2', ${`https://files.example/bench/${k}.json`},
              ${["bank_accounts"]}, ${sql.json({})})
      returning id::int as id`;
    await sql`
      insert into regwatch.change_values (change_id, heading, tax_id, change_date, old_value, new_value, path, day_order)
      values (${row!.id}, 'bank_accounts', ${p.taxId}, ${addDays(today, -5)},
              ${sql.json([{ bank_account: account(900_000 + k) }] as never)},
              ${sql.json([{ bank_account: p.account }] as never)}, ${`https://files.example/bench/${k}.json`}, 1)`;
  }
  return payees;
}

/** What each row of the large batch is meant to get (by the row's index, 0-based). */
export function rowShape(
  i: number,
): "plain" | "other_account" | "no_tax_id" | "other_name" | "bad_amount" | "formula" {
  const k = i % 100;
  if (k === 10 || k === 11) return "other_account";
  if (k >= 20 && k < 30) return "no_tax_id";
  if (k === 40) return "other_name";
  if (k === 50) return "bad_amount";
  if (k === 60) return "formula";
  return "plain";
}

/**
 * The verdict row `i` must get when the batch was written for `payeeCount` payees: a worse
 * reason wins (VERDICTS order); every 50th payee (from the 8th) changed its account five days
 * ago, every 5th is on no watch list.
 */
export function expectedVerdict(i: number, payeeCount: number): string {
  const j = i % payeeCount;
  const shape = rowShape(i);
  if (shape === "other_account") return "account_not_registered";
  if (shape === "other_name") return "name_mismatch";
  if (shape === "bad_amount") return "invalid_amount";
  if (j % 50 === 7) return "account_recently_changed";
  return j % 5 === 0 ? "not_watched" : "ok";
}

/** Hungarian forms of amounts, by row. */
function amountText(i: number): string {
  const forint = 1000 + ((i * 7919) % 2_000_000);
  switch (i % 4) {
    case 0:
      return `${forint.toLocaleString("en").replace(/,/g, " ")}`;
    case 1:
      return `${forint.toLocaleString("en").replace(/,/g, ".")} Ft`;
    case 2:
      return `${forint},50`;
    default:
      return `${forint.toLocaleString("en").replace(/,/g, ".")},25`;
  }
}

/**
 * Writes `rows` payments to `file`: Windows-1250, `;`, Hungarian headers. Returns the file's
 * line count of payments (without the header).
 */
export async function writeLargeBatch(file: string, payees: readonly Payee[], rows: number): Promise<number> {
  const out = createWriteStream(file);
  const encode = (text: string) => iconv.encode(text, "windows-1250");
  let buffer = "Adószám;Kedvezményezett neve;Kedvezményezett számlaszáma;Összeg;Pénznem;Közlemény\r\n";
  for (let i = 0; i < rows; i++) {
    const p = payees[i % payees.length]!;
    const other = payees[(i + 1) % payees.length]!;
    const shape = rowShape(i);
    const taxId = shape === "no_tax_id" ? "" : `${p.taxId}-2-41`;
    const name = shape === "other_name" ? "Teljesen Más Név Zrt." : p.name.toUpperCase();
    const acct = shape === "other_account" ? other.account : p.account;
    const amount = shape === "bad_amount" ? "0" : amountText(i);
    const reference =
      shape === "formula" ? `=HYPERLINK("http://x.example/${i}","számla")` : `${i + 1}/2026 számla`;
    const quoted = (s: string) => (/[;"]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
    buffer += `${taxId};${quoted(name)};${acct};${quoted(amount)};HUF;${quoted(reference)}\r\n`;
    if (buffer.length > 256 * 1024) {
      if (!out.write(encode(buffer))) await once(out, "drain");
      buffer = "";
    }
  }
  out.end(encode(buffer));
  await once(out, "close");
  return rows;
}

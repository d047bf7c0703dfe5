/**
 * `node bin/run-ts.js bench/payments-chunk.ts [--businesses N] [--chunk N] [--runs N] [--suppliers N]`: how long
 * checkChunk takes on one chunk of a payment batch against a cache the size a finance team's
 * regwatch holds (search records and profiles kept through saveBusinesses, a watch list, account
 * and name changes). The chunk mixes what real exports hold: rows with a tax number and a name,
 * rows without a tax number (found by account), accounts of other businesses, unknown accounts.
 * Prints the median time of a chunk whose payees are all read afresh (a batch's first chunk) and
 * the rows per second of a 200,000-row batch to --suppliers payees checked chunk after chunk with
 * the batch's cache. Uses DATABASE_URL's
 * server (a fresh database on it), else an embedded Postgres in a temp dir. Not a test.
 */
import { parseArgs } from "node:util";
import type { BusinessRecord } from "../src/api/search-schemas.ts";
import { addDays, localDateTime } from "../src/dates.ts";
import { openDatabase } from "../src/db/connect.ts";
import type { PaymentRow } from "../src/formats/batch-row.ts";
import { saveBusinesses } from "../src/parse/save-businesses.ts";
import { partCheckDigit } from "../src/payments/accounts.ts";
import { checkChunk, createKnowledgeCache } from "../src/payments/check-chunk.ts";
import { checkDigit } from "../src/taxid.ts";
import { benchServer } from "./bench-database.ts";

const { values } = parseArgs({
  options: {
    businesses: { type: "string", default: "50000" },
    chunk: { type: "string", default: "5000" },
    runs: { type: "string", default: "5" },
    suppliers: { type: "string", default: "5000" },
  },
});
const BUSINESSES = Number(values.businesses);
const CHUNK = Number(values.chunk);
const RUNS = Number(values.runs);
/** Distinct payees of the 200,000-row batch (a finance team pays the same suppliers again and again). */
const SUPPLIERS = Number(values.suppliers);

const taxBase = (n: number) => {
  const digits = String(4_000_000 + n).padStart(7, "0");
  return `${digits}${checkDigit(digits)}`;
};
const account = (n: number) => {
  const bank = "1040000";
  const body = String(n).padStart(15, "0");
  return `${bank}${partCheckDigit(bank)}-${body.slice(0, 8)}-${body.slice(8)}${partCheckDigit(body)}`;
};
const WORDS = ["Kővári", "Őrségi", "Széchenyi", "Tiszai", "Bükki", "Dunai", "Mátrai", "Balatoni"];
const nameOf = (i: number) =>
  `${WORDS[i % WORDS.length]} ${WORDS[(i >> 3) % WORDS.length]} ${i} Kereskedelmi Kft.`;

const pg = await benchServer();
try {
  const url = await pg.database("regwatch_bench_payments_chunk");
  const db = await openDatabase({ databaseUrl: url, dataDir: "" });
  const today = localDateTime(new Date(), "Europe/Budapest").date;
  const seedStart = performance.now();
  for (let from = 0; from < BUSINESSES; from += 2000) {
    const records = Array.from({ length: Math.min(2000, BUSINESSES - from) }, (_, k) => {
      const i = from + k;
      return {
        type: i % 10 === 9 ? "self_employed" : "companies",
        status_code: i % 97 === 5 ? 0 : 1,
        tax_number: `${taxBase(i)}-2-41`,
        full_name: nameOf(i),
        short_name: i % 10 === 9 ? null : `${WORDS[i % WORDS.length]} ${i} Kft.`,
        bank_accounts:
          i % 10 === 9 ? [] : [{ bank_account: account(i) }, { bank_account: account(1_000_000 + i) }],
      } as BusinessRecord;
    });
    await saveBusinesses(db.sql, records, "Europe/Budapest");
  }
  await db.sql`insert into regwatch.watch_lists (list_key, list_name) values ('bench', 'suppliers')`;
  await db.sql`
    insert into regwatch.watched_items (list_key, tax_id)
    select 'bench', tax_id from regwatch.businesses where right(tax_id, 1) <> '3'`;
  // One business in 50 changed an account a week ago, one in 200 its name.
  await db.sql`
    with c as (
      insert into regwatch.changes (tax_id, change_date, chapter, path, changed_headings, raw)
      select tax_id, ${addDays(today, -7)}::date, '2', 'https://files.example/' || tax_id,
             array[case when n % 4 = 0 then 'long_name' else 'bank_accounts' end], '{}'::jsonb
      from (select tax_id, row_number() over (order by tax_id) as n from regwatch.businesses) b
      where n % 50 = 0
      returning id, tax_id, changed_headings[1] as heading)
    insert into regwatch.change_values (change_id, heading, tax_id, change_date, old_value, new_value, path, day_order)
    select c.id, c.heading, c.tax_id, ${addDays(today, -7)}::date,
           case when c.heading = 'long_name' then to_jsonb('Régi ' || c.tax_id || ' Kft.') else '[]'::jsonb end,
           case when c.heading = 'long_name' then to_jsonb(b.full_name) else b.record -> 'bank_accounts' end,
           'https://files.example/' || c.tax_id, 1
    from c join regwatch.businesses b using (tax_id)`;
  // As autovacuum would have left a cache built over months: GIN pending lists merged, statistics current.
  await db.sql`vacuum analyze`;
  const seedSeconds = (performance.now() - seedStart) / 1000;

  const chunk = (offset: number, spread = BUSINESSES): PaymentRow[] =>
    Array.from({ length: CHUNK }, (_, k) => {
      const i = (offset + k * 7) % spread;
      const shape = k % 20;
      return {
        line: k + 2,
        taxId: shape < 3 ? null : `${taxBase(i)}-2-41`,
        bankAccount: shape === 5 ? account(i + 1) : shape === 6 ? account(5_000_000 + k) : account(i),
        amount: "125000.50",
        amountRaw: "125.000,50",
        amountProblem: null,
        currency: "HUF",
        reference: `${k}/2026`,
        name: shape === 8 ? "Teljesen Más Zrt." : nameOf(i).toUpperCase(),
      };
    });
  const options = { today, holdDays: 30, recheckDays: 30, timeZone: "Europe/Budapest", online: null };
  // Cold: every chunk reads all it needs (a fresh cache each time), as a batch's first chunk does.
  const times: number[] = [];
  const verdicts = new Map<string, number>();
  for (let run = 0; run <= RUNS; run++) {
    const rows = chunk(run * 1_234);
    const started = performance.now();
    const checked = await checkChunk(db, rows, options);
    const ms = performance.now() - started;
    if (run > 0) times.push(ms); // the first run warms Postgres's buffers and plans
    if (run === RUNS) for (const r of checked) verdicts.set(r.verdict, (verdicts.get(r.verdict) ?? 0) + 1);
  }
  // A batch of 200,000 rows to SUPPLIERS payees, chunk after chunk, with the batch's cache.
  const batchRows = 200_000;
  const cache = createKnowledgeCache();
  const batchStarted = performance.now();
  for (let done = 0; done < batchRows; done += CHUNK)
    await checkChunk(db, chunk(done, SUPPLIERS), { ...options, cache });
  const batchSeconds = (performance.now() - batchStarted) / 1000;
  await db.close();
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const figures = {
    businesses: BUSINESSES,
    seed_s: Math.round(seedSeconds),
    chunk_rows: CHUNK,
    cold_chunk_median_ms: Math.round(median),
    cold_chunk_rows_per_s: Math.round((CHUNK / median) * 1000),
    batch_suppliers: SUPPLIERS,
    batch_200k_s: Math.round(batchSeconds * 10) / 10,
    batch_200k_rows_per_s: Math.round(batchRows / batchSeconds),
  };
  for (const [key, value] of Object.entries(figures)) process.stdout.write(`${key.padEnd(22)} ${value}\n`);
  process.stdout.write(`verdicts of the last chunk: ${JSON.stringify(Object.fromEntries(verdicts))}\n`);
} finally {
  await pg.stop();
}

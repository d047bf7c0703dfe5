/**
 * Ingest: the sync's own write path (writeWindow: changes, sources, pending files, coverage in
 * one transaction per window) fed N synthetic changes in window-sized batches, against COPY of
 * the same rows into a scratch table, measured in the same run on the same database.
 */
import { once } from "node:events";
import pLimit from "p-limit";
import type { ChangedItem } from "../src/api/watch-schemas.ts";
import { addDays } from "../src/dates.ts";
import type { Sql } from "../src/db/connect.ts";
import { writeWindow } from "../src/sync/sql/window.ts";
import { round } from "./api-budget.ts";

export interface IngestResult {
  changes: number;
  writers: number;
  batch: number;
  ingest_s: number;
  copy_s: number;
  ingest_rows_per_s: number;
  copy_rows_per_s: number;
  ingest_copy_ratio: number;
}

const HEADINGS = ["long_name", "bank_accounts", "address", "representatives", "status", "main_activities"];
const FORMS = ["companies", "self_employed", "civil_orgs"];

function syntheticBatch(
  batchIndex: number,
  size: number,
): { items: ChangedItem[]; raw: Record<string, unknown>[] } {
  const items: ChangedItem[] = [];
  for (let i = 0; i < size; i++) {
    const n = batchIndex * size + i;
    const taxId = String(10_000_000 + (n % 7_000_000)).padStart(8, "0");
    const change = addDays("2020-01-01", Math.floor(n / 1000) % 2000);
    const form = FORMS[n % FORMS.length]!;
    items.push({
      change,
      tax_id: taxId,
      chapter: String(1 + (n % 9)),
      changed_headings: [HEADINGS[n % HEADINGS.length]!, HEADINGS[(n + 2) % HEADINGS.length]!],
      path: `https://files.example/${change}/${form}/${taxId}_${n}.json`,
    });
  }
  return {
    items,
    raw: items.map((item) => ({ ...item, change_type: "mklk", heading_types: item.changed_headings })),
  };
}

/**
 * `writers` windows are written at once, as a sync does when several windows answer together
 * (its concurrency, bounded by the connection pool). The two sides alternate in `rounds` slices
 * of the same rows (write path, then COPY of those rows, then the next slice), so a machine whose
 * load changes during the run slows both alike; each side's time is the sum of its slices.
 */
export async function ingest(
  sql: Sql,
  total: number,
  batch: number,
  writers: number,
  rounds = 4,
): Promise<IngestResult> {
  await sql`truncate regwatch.changes, regwatch.change_sources, regwatch.change_files, regwatch.coverage cascade`;
  await sql`drop table if exists regwatch_bench_copy`;
  await sql`create unlogged table regwatch_bench_copy (tax_id text, change_date date, chapter text, path text, changed_headings text[], raw jsonb)`;
  await sql`alter table regwatch_bench_copy set logged`;
  const batches = Math.ceil(total / batch);
  const size = (b: number) => Math.min(batch, total - b * batch);
  let ingestMs = 0;
  let copyMs = 0;
  for (let round = 0; round < rounds; round++) {
    const first = Math.floor((batches * round) / rounds);
    const end = Math.floor((batches * (round + 1)) / rounds);
    let t = performance.now();
    const limit = pLimit(writers);
    await Promise.all(
      Array.from({ length: end - first }, (_, i) =>
        limit(() => {
          const b = first + i;
          const { items, raw } = syntheticBatch(b, size(b));
          const start = addDays("2020-01-01", b);
          const span = { start, end: start };
          return writeWindow(sql, {
            listKey: `bench-${b % 100}`,
            runId: null,
            requested: span,
            covered: span,
            items: items.map((item, i) => ({ item, raw: raw[i]! })),
            invalid: [],
          });
        }),
      ),
    );
    ingestMs += performance.now() - t;

    t = performance.now();
    // Inside a transaction of its own, as every COPY of regwatch is: the pool scopes each bare
    // statement to its account's schema with a transaction around it, which a COPY stream cannot have.
    await sql.begin(async (tx) => {
      const writable = await tx`copy regwatch_bench_copy from stdin`.writable();
      for (let b = first; b < end; b++) {
        const { items, raw } = syntheticBatch(b, size(b));
        let chunk = "";
        items.forEach((item, i) => {
          const headings = `{${item.changed_headings.join(",")}}`;
          chunk += `${item.tax_id}\t${item.change}\t${item.chapter}\t${item.path}\t${headings}\t${copyText(JSON.stringify(raw[i]))}\n`;
        });
        if (!writable.write(chunk)) await once(writable, "drain");
      }
      writable.end();
      await once(writable, "finish");
    });
    copyMs += performance.now() - t;
  }
  await sql`drop table regwatch_bench_copy`;
  const ingestS = ingestMs / 1000;
  const copyS = copyMs / 1000;

  const ingestRate = total / ingestS;
  const copyRate = total / copyS;
  return {
    changes: total,
    writers,
    batch,
    ingest_s: round(ingestS),
    copy_s: round(copyS),
    ingest_rows_per_s: Math.round(ingestRate),
    copy_rows_per_s: Math.round(copyRate),
    ingest_copy_ratio: round(ingestRate / copyRate, 3),
  };
}

/** COPY text format escapes backslashes (JSON strings never hold raw tabs or newlines). */
function copyText(value: string): string {
  return value.replaceAll("\\", "\\\\");
}

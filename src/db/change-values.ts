/**
 * Parsed change files: which stored bodies still need parsing, and writing their heading values,
 * parse status and the business profiles they feed, one batch per transaction.
 */

import { redactSecrets } from "../secrets.ts";
import { type ProfileFacts, writeProfiles } from "./business-profiles.ts";
import type { Sql } from "./connect.ts";
import type { ParseOutcomeRow as ParseOutcome, StoredBodyRow as StoredBody } from "./rows.ts";

/** new: never parsed; retry: also unrecognised or failed ones; all: every fetched file. */
export type ParseSelection = "new" | "retry" | "all";

/**
 * A stored body as the parse step gets it: too large ones come without their body (`storedAs`
 * says whether it is kept as jsonb, which the database can page through, or as bytes).
 */
export type BodyToParse = StoredBody & { size: number; tooLarge: boolean; storedAs: "json" | "bytes" | null };

/**
 * A page of fetched files to parse, by path, with their stored bodies: at most `limit` files and
 * (beyond the first) at most `batchBytes` of bodies, so what the parser holds at once is bounded.
 * A body larger than `maxBytes` comes without its body (tooLarge) and is never loaded.
 */
export async function filesToParse(
  sql: Sql,
  selection: ParseSelection,
  afterPath: string,
  limit: number,
  bounds: { maxBytes: number; batchBytes: number },
): Promise<BodyToParse[]> {
  const rows = await sql<
    {
      path: string;
      content_type: string | null;
      size: number;
      too_large: boolean;
      stored_as: "json" | "bytes" | null;
      body_json: unknown;
      body_bytes: Buffer | null;
    }[]
  >`
    with page as (
      select path, coalesce(size_bytes, 0)::bigint > ${bounds.maxBytes} as too_large,
             coalesce(size_bytes, 0)::float8 as size
      from regwatch.change_files
      where status = 'fetched' and path > ${afterPath}
        and ${
          selection === "all"
            ? sql`true`
            : selection === "retry"
              ? sql`(parse_status is null or parse_status in ('unrecognised', 'failed'))`
              : sql`parse_status is null`
        }
      order by path
      limit ${limit}
    ), running as (
      select *, sum(case when too_large then 0 else size end) over (order by path) as loaded,
             row_number() over (order by path) as n
      from page
    )
    select r.path, f.content_type, r.size, r.too_large,
           case when f.body_json is not null then 'json' when f.body_bytes is not null then 'bytes' end as stored_as,
           case when r.too_large then null else f.body_json end as body_json,
           case when r.too_large then null else f.body_bytes end as body_bytes
    from running r join regwatch.change_files f on f.path = r.path
    where r.n = 1 or r.loaded <= ${bounds.batchBytes}
    order by r.path`;
  return rows.map((r) => ({
    path: r.path,
    contentType: r.content_type,
    json: r.body_json,
    bytes: r.body_bytes,
    size: Number(r.size),
    tooLarge: r.too_large,
    storedAs: r.stored_as,
  }));
}

/**
 * Whether a stored JSON body is `{…, [key]: [...]}` with, unless the array is empty, an object
 * element holding `marker`: the shape check of a parser's server-side extraction, run by the
 * database so the body never comes here whole.
 */
export async function bodyHasArray(sql: Sql, path: string, key: string, marker: string): Promise<boolean> {
  const [row] = await sql<{ matches: boolean }[]>`
    select jsonb_typeof(f.body_json) = 'object' and jsonb_typeof(f.body_json -> ${key}) = 'array'
           and (jsonb_array_length(f.body_json -> ${key}) = 0 or exists (
             select 1 from jsonb_array_elements(f.body_json -> ${key}) e
             where jsonb_typeof(e) = 'object' and e ? ${marker})) as matches
    from regwatch.change_files f
    where f.path = ${path} and jsonb_typeof(f.body_json) = 'object'
      and jsonb_typeof(f.body_json -> ${key}) = 'array'`;
  return row?.matches ?? false;
}

/**
 * The elements of a stored JSON body's top-level array `key` with their positions, `pageSize` at
 * a time through a cursor: the database reads the body once and this process holds one page.
 * (No sort is asked, which would make the database order every element first; use `index`.)
 */
export async function* bodyArrayPages(
  sql: Sql,
  path: string,
  key: string,
  pageSize: number,
): AsyncIterable<{ entry: unknown; index: number }[]> {
  const cursor = sql<{ entry: unknown; index: number }[]>`
    select e.value as entry, (e.ordinality - 1)::int as index
    from regwatch.change_files f, jsonb_array_elements(f.body_json -> ${key}) with ordinality e
    where f.path = ${path}`.cursor(pageSize);
  for await (const rows of cursor) yield rows;
}

export interface ParsedFile {
  path: string;
  outcome: ParseOutcome;
}

/**
 * Replaces the values of every file of the batch with what its parse found (so a re-parse leaves
 * exactly the file's values), marks each file, and merges the new values into the profiles.
 * Returns the number of value rows written.
 */
export async function saveParsedFiles(sql: Sql, files: readonly ParsedFile[]): Promise<number> {
  if (files.length === 0) return 0;
  const values = files.flatMap((f) =>
    f.outcome.status === "parsed"
      ? f.outcome.values.map((v) => ({
          path: f.path,
          heading: v.heading,
          old_value: v.oldValue,
          new_value: v.newValue,
        }))
      : [],
  );
  const marks = files.map((f) => ({
    path: f.path,
    parse_status: f.outcome.status,
    parser: f.outcome.status === "unrecognised" ? null : f.outcome.parser,
    parse_error: f.outcome.status === "parsed" ? null : redactSecrets(f.outcome.reason).slice(0, 2000),
  }));
  const paths = files.map((f) => f.path);
  return sql.begin(async (tx) => {
    await tx`delete from regwatch.change_values where path = any(${paths}::text[])`;
    let written: {
      tax_id: string;
      change_date: string;
      change_id: number;
      heading: string;
      new_value: unknown;
    }[] = [];
    if (values.length > 0) {
      // A file may be the path of more than one change row: each gets the values.
      written = await tx`
        insert into regwatch.change_values (change_id, heading, tax_id, change_date, old_value, new_value, path)
        select c.id, r.heading, c.tax_id, c.change_date, r.old_value, r.new_value, r.path
        from jsonb_to_recordset(${tx.json(values as never)}::jsonb)
          as r(path text, heading text, old_value jsonb, new_value jsonb)
        join regwatch.change_files f on f.path = r.path
        join regwatch.changes c on c.id = any(f.change_ids)
        order by c.id, r.heading
        on conflict (change_id, heading) do update set
          tax_id = excluded.tax_id, change_date = excluded.change_date, old_value = excluded.old_value,
          new_value = excluded.new_value, path = excluded.path, parsed_at = now()
        returning tax_id, to_char(change_date, 'YYYY-MM-DD') as change_date, change_id::int as change_id,
                  heading, new_value`;
    }
    await tx`
      update regwatch.change_files f
      set parse_status = r.parse_status, parser = r.parser, parse_error = r.parse_error, parsed_at = now()
      from jsonb_to_recordset(${tx.json(marks as never)}::jsonb)
        as r(path text, parse_status text, parser text, parse_error text)
      where f.path = r.path`;
    await writeProfiles(
      tx,
      factsFromChanges(
        written.map((w) => ({
          taxId: w.tax_id,
          changeDate: w.change_date,
          changeId: w.change_id,
          heading: w.heading,
          newValue: w.new_value,
        })),
      ),
    );
    return written.length;
  });
}

/**
 * Per business, the newest value of each heading among parsed changes (later date wins, then the
 * later change), so that one batch writes one row per business.
 */
export function factsFromChanges(
  rows: ReadonlyArray<{
    taxId: string;
    changeDate: string;
    changeId: number;
    heading: string;
    newValue: unknown;
  }>,
): ProfileFacts[] {
  const sorted = [...rows].sort((a, b) =>
    a.changeDate === b.changeDate ? a.changeId - b.changeId : a.changeDate < b.changeDate ? -1 : 1,
  );
  const byTaxId = new Map<string, ProfileFacts>();
  for (const row of sorted) {
    let facts = byTaxId.get(row.taxId);
    if (!facts) {
      facts = { taxId: row.taxId, headings: {} };
      byTaxId.set(row.taxId, facts);
    }
    facts.headings[row.heading] = { value: row.newValue, as_of: row.changeDate, source: "change_file" };
  }
  return [...byTaxId.values()];
}

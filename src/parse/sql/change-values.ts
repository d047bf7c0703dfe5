/**
 * Reading change files for the parse step: which stored bodies still need parsing, with the
 * changes pointing at each, and the elements of a body too large to load whole. Writing what a
 * parse found is value-writes.ts.
 */

import type { Sql } from "../../db/connect.ts";
import type { StoredBodyRow as StoredBody } from "../../db/rows.ts";

/** new: never parsed; retry: also unrecognised, unattributed or failed ones; all: every fetched file. */
export type ParseSelection = "new" | "retry" | "all";

/** A change pointing at a file: what attributing the file's entries needs. */
export interface FileChangeRow {
  id: number;
  taxId: string;
  chapter: string;
  headings: string[];
}

/**
 * A stored body as the parse step gets it: too large ones come without their body (`storedAs`
 * says whether it is kept as jsonb, which the database can page through, or as bytes), each with
 * the changes pointing at it (`changeIds` as the file's row lists them, to notice one added since).
 */
export type BodyToParse = StoredBody & {
  size: number;
  tooLarge: boolean;
  storedAs: "json" | "bytes" | null;
  changeIds: number[];
  changes: FileChangeRow[];
};

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
      change_ids: number[];
      changes: FileChangeRow[];
    }[]
  >`
    with page as (
      select path, coalesce(size_bytes, 0)::bigint > ${bounds.maxBytes} as too_large,
             coalesce(size_bytes, 0)::float8 as size
      from ${sql.t.change_files}
      where status = 'fetched' and path > ${afterPath} and body_removed_on is null
        and ${
          selection === "all"
            ? sql`true`
            : selection === "retry"
              ? sql`(parse_status is null or parse_status in ('unrecognised', 'unattributed', 'failed'))`
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
           case when r.too_large then null else f.body_bytes end as body_bytes,
           array_to_json(f.change_ids) as change_ids,
           coalesce((select json_agg(json_build_object('id', c.id, 'taxId', c.tax_id, 'chapter', c.chapter,
                                                       'headings', c.changed_headings) order by c.id)
                     from ${sql.t.changes} c where c.id = any(f.change_ids)), '[]') as changes
    from running r join ${sql.t.change_files} f on f.path = r.path
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
    changeIds: r.change_ids,
    changes: r.changes,
  }));
}

/**
 * When a stored JSON body is `{…, [key]: [...]}` with a non-empty array whose every element is
 * an object holding all `required` keys, its other top-level fields (small: the array left out);
 * else null. The shape check of a parser's server-side extraction, run by the database so the
 * body never comes here whole.
 */
export async function bodyArrayShape(
  sql: Sql,
  path: string,
  key: string,
  required: readonly string[],
): Promise<{ top: Record<string, unknown> } | null> {
  const [row] = await sql<{ top: Record<string, unknown> }[]>`
    select f.body_json - ${key}::text as top
    from ${sql.t.change_files} f
    where f.path = ${path} and jsonb_typeof(f.body_json) = 'object'
      and jsonb_typeof(f.body_json -> ${key}) = 'array' and jsonb_array_length(f.body_json -> ${key}) > 0
      and not exists (
        select 1 from jsonb_array_elements(f.body_json -> ${key}) e
        where jsonb_typeof(e) <> 'object' or not e ?& ${required as string[]}::text[])`;
  return row ? { top: row.top } : null;
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
    from ${sql.t.change_files} f, jsonb_array_elements(f.body_json -> ${key}) with ordinality e
    where f.path = ${path}`.cursor(pageSize);
  for await (const rows of cursor) yield rows;
}

/**
 * The stored reading of the registry's description (table registry_descriptions): one row per
 * watch address, replaced each time the description is read again (at most daily). The shapes
 * are src/api/description-outcome.ts's, less what is not stored (whether a failure was transient).
 */
import type { ChangesParams } from "../../api/description-outcome.ts";
import type { Sql } from "../../db/connect.ts";

export type StoredOutcome =
  | { status: "found"; url: string; sha256: string; readOn: string; params: ChangesParams }
  | { status: "absent" | "unreadable"; tried: string[]; problem: string };

/** A stored row: the outcome, the watch address it belongs to, and the day it was read. */
export type StoredDescription = StoredOutcome & { watchUrl: string; readOn: string; readAt: Date };

interface Row {
  watch_url: string;
  status: "found" | "absent" | "unreadable";
  url: string | null;
  sha256: string | null;
  read_on: string;
  read_at: Date;
  from_param: string | null;
  to_param: string | null;
  page_param: string | null;
  date_format: string | null;
  end_inclusive: boolean | null;
  tried: string[];
  problem: string | null;
}

/**
 * The stored reading for `watchUrl`; without it, the one read last (whatever its address), which
 * is what a report of "the registry" shows when only one registry is configured.
 */
export async function loadDescription(sql: Sql, watchUrl?: string): Promise<StoredDescription | undefined> {
  const rows = await sql<Row[]>`
    SELECT watch_url, status, url, sha256, read_on::text AS read_on, read_at, from_param, to_param,
           page_param, date_format, end_inclusive, tried, problem
    FROM ${sql.t.registry_descriptions}
    ${watchUrl === undefined ? sql`` : sql`WHERE watch_url = ${watchUrl}`}
    ORDER BY read_at DESC
    LIMIT 1`;
  const row = rows[0];
  return row ? fromRow(row) : undefined;
}

/**
 * Stores a reading for `watchUrl` (replacing the one before). `readOn` is the day it was read (in
 * REGWATCH_TZ); a found outcome carries its own.
 */
export async function saveDescription(
  sql: Sql,
  outcome: StoredOutcome,
  where: { watchUrl: string; readOn: string },
): Promise<void> {
  const found = outcome.status === "found" ? outcome : undefined;
  const missing = outcome.status === "found" ? undefined : outcome;
  const row = {
    watch_url: where.watchUrl,
    status: outcome.status,
    url: found?.url ?? null,
    sha256: found?.sha256 ?? null,
    read_on: found?.readOn ?? where.readOn,
    from_param: found?.params.from ?? null,
    to_param: found?.params.to ?? null,
    page_param: found?.params.page ?? null,
    date_format: found?.params.dateFormat ?? null,
    end_inclusive: found?.params.endInclusive ?? null,
    tried: missing?.tried ?? [],
    problem: missing?.problem ?? null,
  };
  await sql`
    INSERT INTO ${sql.t.registry_descriptions} ${sql(row)}
    ON CONFLICT (watch_url) DO UPDATE SET
      status = excluded.status, url = excluded.url, sha256 = excluded.sha256,
      read_on = excluded.read_on, read_at = now(), from_param = excluded.from_param,
      to_param = excluded.to_param, page_param = excluded.page_param,
      date_format = excluded.date_format, end_inclusive = excluded.end_inclusive,
      tried = excluded.tried, problem = excluded.problem`;
}

function fromRow(row: Row): StoredDescription {
  const common = { watchUrl: row.watch_url, readOn: row.read_on, readAt: row.read_at };
  if (row.status === "found" && row.url && row.sha256 && row.from_param && row.to_param) {
    const params: ChangesParams = { from: row.from_param, to: row.to_param };
    if (row.page_param) params.page = row.page_param;
    if (row.date_format) params.dateFormat = row.date_format;
    if (row.end_inclusive !== null) params.endInclusive = row.end_inclusive;
    return { ...common, status: "found", url: row.url, sha256: row.sha256, params };
  }
  const status = row.status === "found" ? "unreadable" : row.status;
  return { ...common, status, tried: row.tried, problem: row.problem ?? "no description" };
}

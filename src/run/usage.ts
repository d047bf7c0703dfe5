import { localDateTime } from "../dates.ts";
import { accountLockKeys } from "../db/account-lock.ts";
import type { Sql, Tx } from "../db/connect.ts";

export interface UsageEvent {
  api: string;
  endpoint: string;
  error: boolean;
  /** Requests to add (default 1); 0 when the request was already counted when it was claimed. */
  requests?: number;
}

/**
 * Counts requests per (day, api, endpoint) in memory and adds them to `api_usage` in one
 * statement per flush, so accounting never costs a round trip per request.
 */
export class UsageRecorder {
  private pending = new Map<
    string,
    { day: string; api: string; endpoint: string; requests: number; errors: number }
  >();

  constructor(
    private readonly sql: Sql,
    private readonly timeZone: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  record(event: UsageEvent): void {
    const day = localDateTime(this.now(), this.timeZone).date;
    const key = `${day}\u0000${event.api}\u0000${event.endpoint}`;
    const entry = this.pending.get(key) ?? {
      day,
      api: event.api,
      endpoint: event.endpoint,
      requests: 0,
      errors: 0,
    };
    entry.requests += event.requests ?? 1;
    if (event.error) entry.errors++;
    this.pending.set(key, entry);
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const rows = [...this.pending.values()];
    this.pending = new Map();
    try {
      await this.sql`
        insert into ${this.sql.t.api_usage} ${this.sql(rows, "day", "api", "endpoint", "requests", "errors")}
        on conflict (day, api, endpoint) do update
        set requests = api_usage.requests + excluded.requests, errors = api_usage.errors + excluded.errors`;
    } catch (error) {
      // Put the counts back so the next flush carries them.
      for (const row of rows) {
        const key = `${row.day}\u0000${row.api}\u0000${row.endpoint}`;
        const entry = this.pending.get(key);
        if (entry) {
          entry.requests += row.requests;
          entry.errors += row.errors;
        } else this.pending.set(key, row);
      }
      throw error;
    }
  }
}

/** Arbitrary but fixed: serialises search quota claims across processes ("rwsq"). */
const SEARCH_QUOTA_LOCK = 0x72_77_73_71;

/**
 * Claims one search request of this month's allowance and counts it in `api_usage`, committed
 * before the request is sent. Claims of every process take turns on one advisory lock, so two
 * processes searching at once cannot both take the last request.
 */
export async function claimSearchRequest(
  sql: Sql,
  claim: { endpoint: string; limit: number; timeZone: string; now?: Date },
): Promise<{ granted: boolean; used: number }> {
  const now = claim.now ?? new Date();
  const day = localDateTime(now, claim.timeZone).date;
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${accountLockKeys(tx, SEARCH_QUOTA_LOCK)})`;
    const used = await searchRequestsThisMonth(tx, claim.timeZone, now);
    if (used >= claim.limit) return { granted: false, used };
    await tx`
      insert into ${tx.t.api_usage} (day, api, endpoint, requests, errors)
      values (${day}, 'search', ${claim.endpoint}, 1, 0)
      on conflict (day, api, endpoint) do update set requests = api_usage.requests + 1`;
    return { granted: true, used: used + 1 };
  });
}

/** Search requests counted this calendar month (in the configured time zone). */
export async function searchRequestsThisMonth(
  sql: Sql | Tx,
  timeZone: string,
  now = new Date(),
): Promise<number> {
  const month = localDateTime(now, timeZone).date.slice(0, 7);
  const [row] = await sql<{ n: number }[]>`
    select coalesce(sum(requests), 0)::int as n from ${sql.t.api_usage}
    where api = 'search' and to_char(day, 'YYYY-MM') = ${month}`;
  return row?.n ?? 0;
}

import { hostname } from "node:os";
import type { Sql } from "../db/connect.ts";
import { redactJson, redactSecrets } from "../secrets.ts";

export type RunKind = "sync" | "backfill" | "reconcile" | "lookup" | "daemon";
export type RunTrigger = "cli" | "schedule" | "catchup" | "manual";
export type RunStatus = "running" | "ok" | "partial" | "failed";

export async function startRun(
  sql: Sql,
  kind: RunKind,
  trigger: RunTrigger,
  stats: Record<string, unknown> = {},
): Promise<number> {
  const [row] = await sql<{ id: number }[]>`
    insert into ${sql.t.runs} (kind, trigger, status, stats, pid, host)
    values (${kind}, ${trigger}, 'running', ${sql.json(redactJson(stats) as never)}, ${process.pid}, ${hostname()})
    returning id`;
  return Number(row!.id);
}

export async function finishRun(
  sql: Sql,
  id: number,
  status: Exclude<RunStatus, "running">,
  stats: Record<string, unknown>,
  error?: string,
): Promise<void> {
  await sql`
    update ${sql.t.runs}
    set status = ${status}, finished_at = now(), stats = ${sql.json(redactJson(stats) as never)},
        error = ${error === undefined ? null : redactSecrets(error)}
    where id = ${id}`;
}

/**
 * Runs left `running` by a process that died. Only called while holding the run lock, so no
 * live process can own them.
 */
export async function failAbandonedRuns(sql: Sql, exceptId?: number): Promise<number> {
  const rows = await sql`
    update ${sql.t.runs}
    set status = 'failed', finished_at = now(), error = coalesce(error, 'abandoned: the process ended without finishing the run')
    where status = 'running' and kind <> 'daemon' and id <> ${exceptId ?? -1}
    returning id`;
  return rows.length;
}

export interface RunHolder {
  id: number;
  kind: string;
  trigger: string;
  pid: number | null;
  host: string | null;
  startedAt: Date;
}

/** The newest running run, to name the holder of the lock in messages. */
export async function currentRun(sql: Sql): Promise<RunHolder | undefined> {
  const [row] = await sql<RunHolder[]>`
    select id, kind, trigger, pid, host, started_at as "startedAt"
    from ${sql.t.runs} where status = 'running' order by started_at desc limit 1`;
  return row;
}

/** Scheduled and catch-up syncs started at or after `since` and finished, oldest first. */
export async function scheduledSyncsSince(
  sql: Sql,
  since: Date,
): Promise<
  {
    status: "ok" | "partial" | "failed";
    stopped: boolean;
    killed: boolean;
    databaseLost: boolean;
    windowsIncomplete: boolean;
    finishedAt: Date;
  }[]
> {
  const rows = await sql<
    {
      status: "ok" | "partial" | "failed";
      stopped: boolean | null;
      killed: boolean;
      database_lost: boolean;
      incomplete: boolean | null;
      finished_at: Date;
    }[]
  >`
    select status,
           (stats->>'stopped')::boolean is true as stopped,
           coalesce(error, '') like 'abandoned:%' as killed,
           coalesce(error, '') like 'database problem:%' as database_lost,
           coalesce((stats->>'windowsFailed')::int, 0) > 0
             or coalesce((stats->>'windowsDone')::int, 0) + coalesce((stats->>'windowsSkipped')::int, 0)
                < coalesce((stats->>'windowsPlanned')::int, 0) as incomplete,
           finished_at
    from ${sql.t.runs}
    where kind = 'sync' and trigger in ('schedule', 'catchup') and started_at >= ${since}
      and status in ('ok', 'partial', 'failed') and finished_at is not null
    order by started_at`;
  return rows.map((r) => ({
    status: r.status,
    stopped: r.stopped === true,
    // Left 'running' by a process that died (OOM, crash, SIGKILL): resumed, but a bounded number of times.
    killed: r.killed,
    databaseLost: r.database_lost,
    windowsIncomplete: r.status === "failed" || r.incomplete === true,
    finishedAt: r.finished_at,
  }));
}

/**
 * Raising alerts from a durable cursor over changes.id. Sync and backfill runs write changes one
 * run at a time (the run lock), so the changes a run stored first have ids above everything
 * earlier runs stored. Finished runs are scanned once, in order: the alerts for the run's new
 * changes, their queued messages and the run's scan mark with the advanced cursor are written in
 * one transaction. A crash at any instant either leaves the run unscanned (the next pass, from any
 * process, scans it) or leaves everything written. The scan reads the primary key from the cursor
 * up, so the ingest path needs no extra index.
 *
 * A backfill raises only when it was started with --alert-history (kept in its run's options).
 */
import type { TransactionSql } from "postgres";
import type { Sql } from "./connect.ts";

export interface ScanResult {
  runId: number;
  raised: { rule: string; count: number }[];
}

/** Serialises scanners, so the cursor only moves forward and each run is scanned once. */
const SCAN_LOCK = 0x72770a1e;

/**
 * Finished sync/backfill runs not scanned yet, oldest first; none from a run still going on
 * (or abandoned and not yet marked failed) onwards, so no run's changes are skipped by the cursor.
 */
export async function unscannedRuns(sql: Sql): Promise<number[]> {
  const rows = await sql<{ id: number }[]>`
    select r.id::int from regwatch.runs r
    where r.kind in ('sync', 'backfill') and r.status <> 'running'
      and not exists (select 1 from regwatch.alert_scans s where s.run_id = r.id)
      and r.id < coalesce((select min(x.id) from regwatch.runs x
                           where x.kind in ('sync', 'backfill') and x.status = 'running'), 'infinity'::numeric)
    order by r.id`;
  return rows.map((r) => r.id);
}

/** Raises and queues the alerts of one run; undefined when it was scanned already. */
export async function scanRun(sql: Sql, runId: number): Promise<ScanResult | undefined> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${SCAN_LOCK})`;
    const [run] = await tx<
      { scanned: boolean; cursor: number; upTo: number; raises: boolean; rules: boolean }[]
    >`
      with cursor as (select coalesce(max(last_change_id), 0) as id from regwatch.alert_scans)
      select exists (select 1 from regwatch.alert_scans where run_id = r.id) as scanned,
             cursor.id::bigint::float8 as cursor,
             coalesce((select max(c.id) from regwatch.changes c
                       where c.id > cursor.id and c.first_seen_at <= r.finished_at), cursor.id)::float8 as "upTo",
             r.kind = 'sync' or coalesce((r.stats -> 'options' ->> 'alertHistory')::boolean, false) as raises,
             exists (select 1 from regwatch.alert_rules where enabled) as rules
      from regwatch.runs r, cursor
      where r.id = ${runId} and r.status <> 'running'`;
    if (!run || run.scanned) return undefined;
    let raised: { rule: string; count: number }[] = [];
    // Without a rule, or for a backfill without --alert-history, only the cursor moves.
    if (run.raises && run.rules) raised = [...(await raise(tx, runId, run.cursor, run.upTo))];
    const total = raised.reduce((sum, r) => sum + r.count, 0);
    await tx`
      insert into regwatch.alert_scans (run_id, raised, last_change_id) values (${runId}, ${total}, ${run.upTo})`;
    return { runId, raised };
  });
}

function raise(tx: TransactionSql, runId: number, after: number, upTo: number) {
  return tx<{ rule: string; count: number }[]>`
    with run as (select started_at from regwatch.runs where id = ${runId}),
    candidates as (
      select r.id as rule_id, c.id as change_id
      from run
      join regwatch.changes c on c.id > ${after} and c.id <= ${upTo} and c.first_seen_at >= run.started_at
      join regwatch.alert_rules r on r.enabled and r.created_at < c.first_seen_at
      where (cardinality(r.headings) = 0 or c.changed_headings && r.headings)
        and (cardinality(r.lists) = 0 or exists (
              select 1 from regwatch.change_sources s
              left join regwatch.watch_lists w on w.list_key = s.list_key
              where s.change_id = c.id and (s.list_key = any (r.lists) or w.list_name = any (r.lists))))
    ), inserted as (
      insert into regwatch.alerts (rule_id, change_id, run_id)
      select rule_id, change_id, ${runId} from candidates order by rule_id, change_id
      on conflict (rule_id, change_id) do nothing
      returning id, rule_id
    ), single as (
      insert into regwatch.alert_deliveries (rule_id, run_id, kind, alert_ids, channel, target)
      select i.rule_id, ${runId}, 'alert', array[i.id], r.channel, r.target
      from inserted i join regwatch.alert_rules r on r.id = i.rule_id
      where not r.digest
    ), digests as (
      insert into regwatch.alert_deliveries (rule_id, run_id, kind, alert_ids, channel, target)
      select i.rule_id, ${runId}, 'digest', array_agg(i.id order by i.id), r.channel, r.target
      from inserted i join regwatch.alert_rules r on r.id = i.rule_id
      where r.digest
      group by i.rule_id, r.channel, r.target
    )
    select r.name as rule, count(*)::int as count
    from inserted i join regwatch.alert_rules r on r.id = i.rule_id
    group by r.name order by r.name`;
}

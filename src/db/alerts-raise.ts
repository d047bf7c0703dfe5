/**
 * Raising alerts. The cursor is the run: a finished sync or backfill run is scanned once, and the
 * alerts for the changes it first stored, their queued messages and the run's scan mark are
 * written in one transaction. A crash at any instant therefore either leaves the run unscanned
 * (the next scan, from any process, raises its alerts) or leaves everything written.
 *
 * A change belongs to the run during which it was first stored: only one process writes changes
 * at a time (the run lock), and every window commits between its run's start and finish.
 * A backfill raises only when it was started with --alert-history (kept in its run's options).
 */
import type { Sql } from "./connect.ts";

export interface ScanResult {
  runId: number;
  raised: { rule: string; count: number }[];
}

/** Finished sync/backfill runs not scanned yet, oldest first. */
export async function unscannedRuns(sql: Sql): Promise<number[]> {
  const rows = await sql<{ id: number }[]>`
    select r.id::int from regwatch.runs r
    where r.kind in ('sync', 'backfill') and r.status <> 'running'
      and not exists (select 1 from regwatch.alert_scans s where s.run_id = r.id)
    order by r.id`;
  return rows.map((r) => r.id);
}

/** Raises and queues the alerts of one run; undefined when another process scanned it first. */
export async function scanRun(sql: Sql, runId: number): Promise<ScanResult | undefined> {
  return sql.begin(async (tx) => {
    // Locking the run row makes two scanners of the same run take turns; the second sees the mark.
    const [run] = await tx<{ scanned: boolean }[]>`
      select exists (select 1 from regwatch.alert_scans where run_id = ${runId}) as scanned
      from regwatch.runs where id = ${runId} and status <> 'running' for update`;
    if (!run || run.scanned) return undefined;
    const [rules] = await tx<{ any: boolean }[]>`
      select exists (select 1 from regwatch.alert_rules where enabled) as any`;
    if (!rules?.any) {
      // Without rules there is nothing to look for: the run is marked without reading its changes.
      await tx`insert into regwatch.alert_scans (run_id, raised) values (${runId}, 0)`;
      return { runId, raised: [] };
    }
    const raised = await tx<{ rule: string; count: number }[]>`
      with run as (
        select id, started_at, finished_at,
               kind = 'sync' or coalesce((stats -> 'options' ->> 'alertHistory')::boolean, false) as raises
        from regwatch.runs where id = ${runId}
      ), candidates as (
        select r.id as rule_id, c.id as change_id
        from run
        join regwatch.changes c on c.first_seen_at >= run.started_at and c.first_seen_at <= run.finished_at
        join regwatch.alert_rules r on r.enabled and r.created_at < c.first_seen_at
        where run.raises
          and (cardinality(r.headings) = 0 or c.changed_headings && r.headings)
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
    const total = raised.reduce((sum, r) => sum + r.count, 0);
    await tx`insert into regwatch.alert_scans (run_id, raised) values (${runId}, ${total})`;
    return { runId, raised: [...raised] };
  });
}

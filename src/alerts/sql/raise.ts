/**
 * Raising alerts, run by run. Sync and backfill runs write one at a time (the run lock), so the
 * changes a run stored first have ids above everything earlier runs stored, and every
 * change_sources row the run added (a list reporting a change for the first time, new or stored
 * before by another list) was first seen between the run's start and its end. Finished runs are
 * scanned once, in order: the alerts, their queued messages, the headings the run's changes named
 * and the run's scan mark with the advanced cursor are written in one transaction. A crash at any
 * instant either leaves the run unscanned (the next pass, from any process, scans it) or leaves
 * everything written. New changes are read from the primary key above the cursor; the sources a
 * run added through a BRIN index on their first_seen_at, which costs the ingest path next to
 * nothing.
 *
 * A rule covering every list takes the changes the run stored first. A rule limited to lists takes
 * the changes one of its lists reported for the first time in the run, whichever list stored them
 * first: a list that starts watching a business reports changes another list stored long ago.
 * Either way only what happened after the rule was created, and one alert per rule and change.
 *
 * A backfill raises only when it was started with --alert-history (kept in its run's options).
 */
import { accountLockKeys } from "../../db/account-lock.ts";
import type { Sql, Tx } from "../../db/connect.ts";
import { noteSeenHeadings } from "./scope.ts";

export interface ScanResult {
  runId: number;
  /** Alerts raised and messages queued, by rule. */
  raised: { rule: string; count: number; queued: number }[];
  /** Messages queued in all: one per alert, one per digest rule. */
  queued: number;
}

/** Serialises scanners, so the cursor only moves forward and each run is scanned once. */
const SCAN_LOCK = 0x72770a1e;

/**
 * Finished sync/backfill runs not scanned yet, oldest first; none from a run still going on
 * (or abandoned and not yet marked failed) onwards, so no run's changes are skipped by the cursor.
 */
export async function unscannedRuns(sql: Sql): Promise<number[]> {
  const rows = await sql<{ id: number }[]>`
    select r.id::int from ${sql.t.runs} r
    where r.kind in ('sync', 'backfill') and r.status <> 'running'
      and not exists (select 1 from ${sql.t.alert_scans} s where s.run_id = r.id)
      and r.id < coalesce((select min(x.id) from ${sql.t.runs} x
                           where x.kind in ('sync', 'backfill') and x.status = 'running'), 'infinity'::numeric)
    order by r.id`;
  return rows.map((r) => r.id);
}

interface RunToScan {
  scanned: boolean;
  cursor: number;
  upTo: number;
  raises: boolean;
  rules: boolean;
  listRules: boolean;
}

/** Raises and queues the alerts of one run; undefined when it was scanned already. */
export async function scanRun(sql: Sql, runId: number): Promise<ScanResult | undefined> {
  return sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${accountLockKeys(tx, SCAN_LOCK)})`;
    const [run] = await tx<RunToScan[]>`
      with cursor as (select coalesce(max(last_change_id), 0) as id from ${tx.t.alert_scans})
      select exists (select 1 from ${tx.t.alert_scans} where run_id = r.id) as scanned,
             cursor.id::bigint::float8 as cursor,
             coalesce((select max(c.id) from ${tx.t.changes} c
                       where c.id > cursor.id and c.first_seen_at <= r.finished_at), cursor.id)::float8 as "upTo",
             r.kind = 'sync' or coalesce((r.stats -> 'options' ->> 'alertHistory')::boolean, false) as raises,
             exists (select 1 from ${tx.t.alert_rules} where enabled) as rules,
             exists (select 1 from ${tx.t.alert_rules} where enabled and cardinality(lists) > 0) as "listRules"
      from ${tx.t.runs} r, cursor
      where r.id = ${runId} and r.status <> 'running'`;
    if (!run || run.scanned) return undefined;
    await noteSeenHeadings(tx, run.cursor, run.upTo);
    let raised: ScanResult["raised"] = [];
    // Without a rule, or for a backfill without --alert-history, only the cursor moves.
    if (run.raises && run.rules) raised = [...(await raise(tx, runId, run))];
    const total = raised.reduce((sum, r) => sum + r.count, 0);
    const queued = raised.reduce((sum, r) => sum + r.queued, 0);
    await tx`
      insert into ${tx.t.alert_scans} (run_id, raised, queued, last_change_id)
      values (${runId}, ${total}, ${queued}, ${run.upTo})`;
    return { runId, raised, queued };
  });
}

function raise(tx: Tx, runId: number, run: RunToScan) {
  // The sources a run added are read only when some rule is limited to lists.
  const reported = run.listRules
    ? tx`
      union
      select r.id, s.change_id
      from run
      join ${tx.t.change_sources} s
        on s.first_seen_at >= run.started_at and s.first_seen_at <= run.finished_at
      left join ${tx.t.watch_lists} w on w.list_key = s.list_key
      join ${tx.t.alert_rules} r
        on r.enabled and cardinality(r.lists) > 0 and r.created_at < s.first_seen_at
       and (s.list_key = any (r.lists) or w.list_name = any (r.lists))
      cross join lateral (
        select c.changed_headings from ${tx.t.changes} c where c.id = s.change_id limit 1
      ) c
      where cardinality(r.headings) = 0 or c.changed_headings && r.headings`
    : tx``;
  return tx<ScanResult["raised"]>`
    with run as (
      select started_at, coalesce(finished_at, now()) as finished_at from ${tx.t.runs} where id = ${runId}
    ), candidates as (
      select r.id as rule_id, c.id as change_id
      from run
      join ${tx.t.changes} c on c.id > ${run.cursor} and c.id <= ${run.upTo} and c.first_seen_at >= run.started_at
      join ${tx.t.alert_rules} r on r.enabled and cardinality(r.lists) = 0 and r.created_at < c.first_seen_at
      where cardinality(r.headings) = 0 or c.changed_headings && r.headings
      ${reported}
    ), facts as (
      -- One index probe per change, as in the lateral above: a plain join of a few candidates
      -- may be planned as a scan of every change.
      select k.rule_id, k.change_id, c.tax_id, c.change_date, c.day_order
      from candidates k
      cross join lateral (
        select c.tax_id, c.change_date,
               (select min(v.day_order) from ${tx.t.change_values} v where v.change_id = c.id) as day_order
        from ${tx.t.changes} c where c.id = k.change_id limit 1
      ) c
    ), inserted as (
      -- Alert ids follow each rule's changes oldest first (day, then the day's order where the
      -- values chain, then storage order), and so do the messages and a digest's alerts.
      insert into ${tx.t.alerts} (rule_id, change_id, run_id)
      select rule_id, change_id, ${runId} from facts
      order by rule_id, change_date, day_order nulls last, change_id
      on conflict (rule_id, change_id) do nothing
      returning id, rule_id, change_id
    ), queued as (
      select i.id, i.rule_id, f.tax_id, f.change_date, r.channel, r.target, r.digest
      from inserted i
      join facts f on f.rule_id = i.rule_id and f.change_id = i.change_id
      join ${tx.t.alert_rules} r on r.id = i.rule_id
    ), single as (
      insert into ${tx.t.alert_deliveries} (rule_id, run_id, kind, alert_ids, channel, target, tax_ids, oldest_change)
      select rule_id, ${runId}, 'alert', array[id], channel, target, array[tax_id], change_date
      from queued where not digest
      order by id
      returning rule_id
    ), digests as (
      insert into ${tx.t.alert_deliveries} (rule_id, run_id, kind, alert_ids, channel, target, tax_ids, oldest_change)
      select rule_id, ${runId}, 'digest', array_agg(id order by id), channel, target,
             array_agg(distinct tax_id order by tax_id), min(change_date)
      from queued where digest
      group by rule_id, channel, target
      order by rule_id
      returning rule_id
    )
    select r.name as rule, count(*)::int as count,
           ((select count(*) from single s where s.rule_id = r.id)
            + (select count(*) from digests g where g.rule_id = r.id))::int as queued
    from inserted i join ${tx.t.alert_rules} r on r.id = i.rule_id
    group by r.id, r.name order by r.name`;
}

/** What the scan of a run raised and queued; undefined while the run is not scanned yet. */
export async function scanCounts(
  sql: Sql,
  runId: number,
): Promise<{ raised: number; queued: number } | undefined> {
  const [row] = await sql<{ raised: number; queued: number }[]>`
    select raised, queued from ${sql.t.alert_scans} where run_id = ${runId}`;
  return row;
}

/**
 * What the console's business page reads about one business: its profile and search record, its
 * values on a day (business_as_of), every change with its values, the lists it is on, its alerts.
 * Each is one statement by tax base number; the page asks for them together.
 */
import { newestStatus, newestStatusColumns, type StatusSource } from "../../changes/sql/newest-status.ts";
import type { Sql } from "../../db/connect.ts";

export interface BusinessProfileRow {
  taxId: string;
  name: string | null;
  /** The status of the newest dated evidence (changes/sql/newest-status.ts), its day and source. */
  statusCode: number | null;
  statusOn: string | null;
  statusSource: StatusSource | null;
  seat: string | null;
  type: string | null;
  registrationNumber: string | null;
  taxNumber: string | null;
  /** business_profiles.headings: {"heading": {value, as_of, source, order_ambiguous?, candidates?}}. */
  headings: Record<string, unknown>;
  profileUpdatedAt: Date | null;
  searchedAt: Date | null;
}

/** The profile and search record of a business, or undefined when regwatch knows neither. */
export async function readBusinessProfile(
  sql: Sql,
  taxId: string,
  timeZone: string,
): Promise<BusinessProfileRow | undefined> {
  const [row] = await sql<BusinessProfileRow[]>`
    select coalesce(p.tax_id, b.tax_id) as "taxId", coalesce(case when p.name_source is distinct from 'operator' then p.name end, b.full_name, b.short_name) as name,
           ${newestStatusColumns(sql)}, coalesce(p.seat, b.address) as seat,
           coalesce(p.type, b.type) as type,
           coalesce(p.registration_number, b.registration_number) as "registrationNumber",
           b.tax_number as "taxNumber", coalesce(p.headings, '{}'::jsonb) as headings,
           p.updated_at as "profileUpdatedAt", b.fetched_at as "searchedAt"
    from (select ${taxId}::text as tax_id) k
    left join ${sql.t.business_profiles} p on p.tax_id = k.tax_id
    left join ${sql.t.businesses} b on b.tax_id = k.tax_id
    left join lateral (${newestStatus(sql, sql`k.tax_id`, timeZone)}) ns on true
    where p.tax_id is not null or b.tax_id is not null`;
  return row;
}

/** Whether any change of the business is stored (a business may be known by its changes alone). */
export async function hasChanges(sql: Sql, taxId: string): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`
    select exists (select 1 from ${sql.t.changes} where tax_id = ${taxId}) as found`;
  return row?.found ?? false;
}

/** business_as_of: {"heading": value, "_order_ambiguous"?: [heading, ...]}. */
export async function readBusinessAsOf(
  sql: Sql,
  taxId: string,
  day: string,
): Promise<Record<string, unknown>> {
  const [row] = await sql<{ values: Record<string, unknown> }[]>`
    select ${sql.t.business_as_of}(${taxId}, ${day}::date) as values`;
  return row?.values ?? {};
}

export interface TimelineRow {
  changeId: number;
  changeDate: string;
  heading: string;
  chapter: string;
  listNames: string[];
  /** False when the change's file is not parsed yet (or gave no value for the heading). */
  hasValues: boolean;
  oldValue: unknown;
  /** False when the file gave the new value but not the old one. */
  oldValueKnown: boolean;
  newValue: unknown;
  orderAmbiguous: boolean;
  fileStatus: string | null;
  parseStatus: string | null;
}

/**
 * Every changed heading of the business, newest first, with its values where the change file
 * gave them; a page of `limit` rows from `offset`, one row more asked to tell whether more follow.
 */
export async function readBusinessTimeline(
  sql: Sql,
  taxId: string,
  page: { limit: number; offset: number },
): Promise<TimelineRow[]> {
  return sql<TimelineRow[]>`
    select h.change_id::int as "changeId", to_char(h.change_date, 'YYYY-MM-DD') as "changeDate",
           h.heading, h.chapter, h.list_names as "listNames", cv.change_id is not null as "hasValues",
           cv.old_value as "oldValue", coalesce(cv.old_value_known, true) as "oldValueKnown",
           cv.new_value as "newValue", coalesce(cv.order_ambiguous, false) as "orderAmbiguous",
           h.file_status as "fileStatus", f.parse_status as "parseStatus"
    from ${sql.t.v_change_headings} h
    left join ${sql.t.change_values} cv on cv.change_id = h.change_id and cv.heading = h.heading
    left join ${sql.t.change_files} f on f.path = h.path
    where h.tax_id = ${taxId}
    order by h.change_date desc, h.heading, cv.day_order desc nulls last, h.change_id desc
    limit ${page.limit + 1} offset ${page.offset}`;
}

export interface BusinessListRow {
  listName: string;
  desired: boolean;
  watched: boolean;
  state: string;
  addedAt: string | null;
}

/** The lists the business is on remotely or desired on, with the reconcile state of each. */
export async function readBusinessLists(sql: Sql, taxId: string): Promise<BusinessListRow[]> {
  return sql<BusinessListRow[]>`
    select list_name as "listName", desired, watched, state, to_char(added_at, 'YYYY-MM-DD') as "addedAt"
    from ${sql.t.v_watch_status} where tax_id = ${taxId}
    order by list_name`;
}

export interface BusinessAlertRow {
  id: number;
  ruleName: string;
  status: string;
  snoozedUntil: string | null;
  changeDate: string;
  headings: string[];
  raisedAt: Date;
}

/** The newest alerts raised for the business's changes (every status). */
export async function readBusinessAlerts(
  sql: Sql,
  taxId: string,
  limit: number,
): Promise<BusinessAlertRow[]> {
  return sql<BusinessAlertRow[]>`
    select a.id::int as id, r.name as "ruleName", a.status, to_char(a.snoozed_until, 'YYYY-MM-DD') as "snoozedUntil",
           to_char(c.change_date, 'YYYY-MM-DD') as "changeDate", c.changed_headings as headings,
           a.raised_at as "raisedAt"
    from ${sql.t.alerts} a
    join ${sql.t.changes} c on c.id = a.change_id
    join ${sql.t.alert_rules} r on r.id = a.rule_id
    where c.tax_id = ${taxId}
    order by a.raised_at desc, a.id desc
    limit ${limit}`;
}

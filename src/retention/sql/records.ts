/**
 * The kinds kept for a time and then removed whole: parsed change-file bodies (their values stay
 * in change_values), recorded payment batches and their rows, uploads held for a column choice,
 * alert targets' replies (replaced by the marker: the message's outcome stays), sign-in records.
 */
import {
  cutInstant,
  deleting,
  deletingOlder,
  markerText,
  type RetentionStep,
  updating,
} from "./fragments.ts";

const bodies = updating(
  (sql) => sql`${sql.t.change_files}`,
  (sql, cut) => sql`v.parse_status = 'parsed' and v.fetched_at < ${cutInstant(sql, cut)}
    and (v.body_json is not null or v.body_bytes is not null)`,
  (sql, cut) => sql`body_json = null, body_bytes = null, body_removed_on = ${cut.today}::date`,
);

/** Rows first, then the batches left without rows, so every statement stays bounded. */
const paymentRows = deleting(
  (sql) => sql`${sql.t.payment_checks}`,
  (sql, cut) =>
    sql`v.batch_id in (select b.id from ${sql.t.payment_batches} b where b.checked_at < ${cutInstant(sql, cut)})`,
);
const paymentBatches = deleting(
  (sql) => sql`${sql.t.payment_batches}`,
  (sql, cut) => sql`v.checked_at < ${cutInstant(sql, cut)}
    and not exists (select 1 from ${sql.t.payment_checks} c where c.batch_id = v.id)`,
  (sql, cut) => sql`v.checked_at < ${cutInstant(sql, cut)}`,
);

const heldUploads = deletingOlder((sql) => sql`${sql.t.held_uploads}`, "held_at");

const replies = updating(
  (sql) => sql`${sql.t.alert_deliveries}`,
  (sql, cut) => sql`v.status <> 'pending' and v.last_reply is not null and v.last_reply <> ${markerText(sql)}
    and coalesce(v.last_attempt_at, v.created_at) < ${cutInstant(sql, cut)}`,
  (sql) => sql`last_reply = ${markerText(sql)}`,
);

const failures = deletingOlder((sql) => sql`${sql.t.console_login_failures}`, "at");
const addresses = deletingOlder((sql) => sql`${sql.t.console_login_addresses}`, "last_at");
const sessions = deletingOlder((sql) => sql`${sql.t.console_sessions}`, "expires_at");

export const BODY_STEPS: readonly RetentionStep[] = [bodies];
export const PAYMENT_ROW_STEPS: readonly RetentionStep[] = [paymentRows, paymentBatches];
export const PAYMENT_FILE_STEPS: readonly RetentionStep[] = [heldUploads];
export const REPLY_STEPS: readonly RetentionStep[] = [replies];
export const SIGN_IN_STEPS: readonly RetentionStep[] = [failures, addresses, sessions];

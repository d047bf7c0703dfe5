/**
 * What a reader role (`regwatch grant-reader`) may read: every table and view of a regwatch schema
 * is classified here, once. Data is read in full; a private table not at all; a table with private
 * columns is read without them. A relation this file does not name is private: a table a later
 * migration adds reaches readers only once it is classified as data (a unit test fails on any
 * table or view of the migrated schema missing here).
 *
 * Private is what signs people in or says where messages go: console users (password hashes),
 * sessions (session ids, CSRF tokens), failed sign-ins (user names and client addresses), who may
 * see which account, the rules' and messages' targets (a chat webhook's address lets whoever holds
 * it post to the channel; e-mail addresses are personal data), each recipient's outcome (keyed by
 * address) and the rule history's settings (which carry the target).
 */

/** Tables readers read in full. */
export const DATA_TABLES = [
  "alert_delivery_health",
  "alert_scans",
  "alerts",
  "api_usage",
  "business_profiles",
  "businesses",
  "change_files",
  "change_sources",
  "change_values",
  "changes",
  "coverage",
  "desired_items",
  "desired_lists",
  "dropped_lists",
  "given_names",
  "inbox_open_changes",
  "invalid_items",
  "item_outcomes",
  "managed_items",
  "managed_lists",
  "payee_verifications",
  "payment_batches",
  "payment_checks",
  "payment_column_choices",
  "registry_descriptions",
  "retention_runs",
  "run_lease",
  "runs",
  "search_bank_accounts",
  "seen_headings",
  "watch_lists",
  "watched_items",
  "worker_heartbeats",
] as const;

/** Views readers read (none of them shows a private table or column: a unit test checks it). */
export const DATA_VIEWS = [
  "v_api_usage_monthly",
  "v_bank_account_changes",
  "v_bank_accounts",
  "v_business_names",
  "v_change_headings",
  "v_changes",
  "v_coverage",
  "v_coverage_gaps",
  "v_heading_changes",
  "v_item_failures",
  "v_open_alerts",
  "v_unread_headings",
  "v_watch_status",
] as const;

/** Tables readers read, all but these columns. */
export const PRIVATE_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  alert_rules: ["target"],
  alert_deliveries: ["target", "recipients"],
  alert_events: ["details"],
};

/** Tables readers never read, with why. */
export const PRIVATE_TABLES: Readonly<Record<string, string>> = {
  console_users: "console sign-in: password hashes",
  console_sessions: "console sign-in: session ids and CSRF tokens",
  console_login_failures: "console sign-in: user names and client addresses of failed attempts",
  console_login_addresses: "console sign-in: the addresses each user signed in from",
  console_user_accounts: "console access: which user may see which account",
  console_oidc_logins: "console sign-in: company sign-ins under way (state, nonce, PKCE verifier)",
  reader_roles: "who was given read access",
  held_uploads: "payment files waiting for their uploader's column choice",
  key_refusals: "registry keys refused: which variable held a key, and a fingerprint of that key",
};

export type ReaderClass = "data" | "partial" | "private";

const DATA = new Set<string>([...DATA_TABLES, ...DATA_VIEWS]);

/** How a relation of the schema is read; anything not classified is private. */
export function readerClassOf(relation: string): ReaderClass {
  if (DATA.has(relation)) return "data";
  if (relation in PRIVATE_COLUMNS) return "partial";
  return "private";
}

export interface ReaderGrantPlan {
  /** Tables and views granted SELECT in full. */
  full: string[];
  /** Tables granted SELECT on these columns only. */
  columns: { table: string; columns: string[] }[];
  /** Relations granted nothing (private, or not classified yet). */
  withheld: string[];
}

/**
 * The grants of a reader, given the schema's relations and each partial table's columns (as the
 * catalogue lists them). Pure: src/db/grants.ts turns it into statements.
 */
export function readerGrantPlan(
  relations: readonly string[],
  columnsOf: (table: string) => readonly string[],
): ReaderGrantPlan {
  const plan: ReaderGrantPlan = { full: [], columns: [], withheld: [] };
  for (const relation of [...relations].sort()) {
    const kind = readerClassOf(relation);
    if (kind === "data") plan.full.push(relation);
    else if (kind === "private") plan.withheld.push(relation);
    else {
      const hidden = new Set(PRIVATE_COLUMNS[relation]);
      plan.columns.push({ table: relation, columns: columnsOf(relation).filter((c) => !hidden.has(c)) });
    }
  }
  return plan;
}

export interface ReaderRole {
  role: string;
  /** Data tables and views (or allowed columns, as table.column) it may not SELECT. */
  unreadable: string[];
  /** Private tables and columns (table.column) it may SELECT; "future tables" for default privileges. */
  exposed: string[];
}

/** Pure: what a role with these privileges misses and what it may read but should not. */
export function judgeAccess(
  role: string,
  relations: readonly { name: string; columns: readonly string[] }[],
  tables: ReadonlySet<string>,
  columns: ReadonlySet<string>,
  defaults: boolean,
): ReaderRole {
  const unreadable: string[] = [];
  const exposed: string[] = [];
  for (const { name, columns: all } of relations) {
    const kind = readerClassOf(name);
    if (kind === "data") {
      if (!tables.has(name)) unreadable.push(name);
    } else if (kind === "private") {
      if (tables.has(name) || all.some((c) => columns.has(`${name}.${c}`))) exposed.push(name);
    } else {
      const hidden = new Set(PRIVATE_COLUMNS[name]);
      for (const c of all) {
        const readable = tables.has(name) || columns.has(`${name}.${c}`);
        if (hidden.has(c) && readable) exposed.push(`${name}.${c}`);
        if (!hidden.has(c) && !readable) unreadable.push(`${name}.${c}`);
      }
    }
  }
  if (defaults) exposed.push("future tables (default privileges)");
  return { role, unreadable, exposed };
}

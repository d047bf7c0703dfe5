/**
 * One account's view of a shared pool. Statements name the account's schema themselves: `sql.t.x`
 * is the identifier `"schema"."x"` (postgres.js escapes `schema.x` so), written where the statement
 * names table, view or function `x`. No search_path and no transaction of its own: a statement is
 * the pool's plain statement (one round trip), and a connection carries nothing of an account, so
 * this pool or PgBouncer in transaction mode may hand it to another account next.
 *
 *   sql`select ... from ${sql.t.watch_lists}`  → the statement, as the pool runs it
 *   sql.begin(fn) / tx.savepoint(fn)           → fn gets the transaction with the same `t` and `schema`
 *
 * Only postgres.js's public API is used: the view is a Proxy that adds properties and wraps the
 * callbacks of begin, savepoint and reserve; the driver's queries are never touched.
 */
import type postgres from "postgres";

const SCHEMA_NAME = /^[a-z][a-z0-9_]{0,62}$/;
const RELATION_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The tables, views and functions migrations/ creates in each schema (scripts/check-sql-names.ts
 * fails when a migration adds one that is not here).
 */
export const RELATION_NAMES = [
  "alert_deliveries",
  "alert_delivery_health",
  "alert_events",
  "alert_rules",
  "alert_scans",
  "alerts",
  "alerts_keep_inbox_open_changes",
  "api_usage",
  "bank_account_list",
  "bank_accounts_of_businesses",
  "business_as_of",
  "business_profiles",
  "businesses",
  "canonical_bank_account",
  "change_files",
  "change_sources",
  "change_values",
  "changes",
  "changes_keep_inbox_open_changes",
  "console_login_addresses",
  "console_login_failures",
  "console_oidc_logins",
  "console_sessions",
  "console_user_accounts",
  "console_users",
  "coverage",
  "desired_items",
  "desired_lists",
  "dropped_lists",
  "given_names",
  "held_uploads",
  "inbox_open_changes",
  "invalid_items",
  "item_outcomes",
  "keep_search_bank_accounts",
  "key_refusals",
  "listed_bank_accounts",
  "managed_items",
  "managed_lists",
  "payee_verifications",
  "payment_batches",
  "payment_checks",
  "payment_column_choices",
  "reader_roles",
  "record_bank_accounts",
  "refresh_inbox_open_changes",
  "registry_day",
  "registry_zone",
  "registry_descriptions",
  "retention_runs",
  "run_lease",
  "runs",
  "search_bank_accounts",
  "seen_headings",
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
  "watch_lists",
  "watched_items",
  "worker_heartbeats",
] as const;

export type RelationName = (typeof RELATION_NAMES)[number];

/** `"schema"."name"` for each of the schema's tables, views and functions. */
export type Relations = Readonly<Record<RelationName, postgres.Helper<string, []>>>;

/** What an account's view adds to the driver's handles. */
export interface Scoped {
  /** The account's relations, qualified: `${sql.t.runs}` in a statement is `"schema"."runs"`. */
  readonly t: Relations;
  /** The account's schema, for a value (to_regclass, hashtext) rather than a name in the text. */
  readonly schema: string;
}

type Unwrapped<T> = T extends readonly unknown[] ? { -readonly [K in keyof T]: Awaited<T[K]> } : Awaited<T>;

/** A transaction (or savepoint) of an account's view: its savepoints are the account's too. */
export type ScopedTx = {
  savepoint<T>(cb: (sql: ScopedTx) => T | Promise<T>): Promise<Unwrapped<T>>;
  savepoint<T>(name: string, cb: (sql: ScopedTx) => T | Promise<T>): Promise<Unwrapped<T>>;
} & Scoped &
  postgres.TransactionSql;

/** An account's view of a pool: its transactions are the account's too. */
export type ScopedSql = {
  begin<T>(cb: (sql: ScopedTx) => T | Promise<T>): Promise<Unwrapped<T>>;
  begin<T>(options: string, cb: (sql: ScopedTx) => T | Promise<T>): Promise<Unwrapped<T>>;
  reserve(): Promise<postgres.ReservedSql & Scoped>;
} & Scoped &
  postgres.Sql;

/** The schema's relations as identifiers built by `sql` (made once per name, on first use). */
function relationsOf(sql: postgres.Sql | postgres.TransactionSql, schema: string): Relations {
  const made = new Map<string, postgres.Helper<string, []>>();
  return new Proxy({} as Relations, {
    get: (_target, key) => {
      if (typeof key !== "string" || key === "then") return undefined;
      if (!RELATION_NAME.test(key)) throw new Error(`"${key}" is not a relation name regwatch uses`);
      let helper = made.get(key);
      if (!helper) {
        helper = sql(`${schema}.${key}`) as unknown as postgres.Helper<string, []>;
        made.set(key, helper);
      }
      return helper;
    },
  });
}

type Body = (tx: unknown) => unknown;

/** `handle` (a pool, transaction or reserved connection) with `t` and `schema` of `schema` added. */
function view<S extends object>(handle: S, schema: string, relations: Relations): S {
  const wrapLast =
    (method: (...args: unknown[]) => unknown) =>
    (...args: unknown[]) => {
      const body = args.pop() as Body;
      return method(...args, (tx: object) => body(view(tx, schema, relations)));
    };
  return new Proxy(handle, {
    get: (target, key, receiver) => {
      if (key === "t") return relations;
      if (key === "schema") return schema;
      const value = Reflect.get(target, key, receiver);
      if ((key === "begin" || key === "savepoint") && typeof value === "function")
        return wrapLast(value as (...args: unknown[]) => unknown);
      if (key === "reserve" && typeof value === "function")
        return async () => view(await (value as () => Promise<object>)(), schema, relations);
      return value;
    },
  });
}

/** An Sql bound to `schema` over `pool`: the pool itself, with the schema's names (see above). */
export function scopedSql(pool: postgres.Sql, schema: string): ScopedSql {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`"${schema}" is not a schema name regwatch uses`);
  return view(pool, schema, relationsOf(pool, schema)) as ScopedSql;
}

/** A transaction of the raw pool seen as `schema`'s (for code that opens it on the pool itself). */
export function scopedTx(tx: postgres.TransactionSql, schema: string): ScopedTx {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`"${schema}" is not a schema name regwatch uses`);
  return view(tx, schema, relationsOf(tx, schema)) as ScopedTx;
}

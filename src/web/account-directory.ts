/**
 * The accounts the console can show when regwatch serves an accounts file: one bounded pool for
 * all of them (ACCOUNTS_POOL connections, whatever the number of accounts), each request's
 * statements run in its account's schema (db/scoped-sql.ts), and the pool's connections close
 * once idle. The console never migrates in a request: `regwatch migrate` and the console's start
 * do; an account whose schema is behind is refused with SchemaBehindError, which the console shows
 * as a page saying so. Which user may see which account is decided elsewhere (auth.ts); this only
 * knows the accounts and their connections.
 */
import type { EventEmitter } from "node:events";
import { DEFAULT_SCHEMA } from "../account-name.ts";
import { type Account, accountSettings } from "../accounts.ts";
import type { Config } from "../config.ts";
import { type Database, forSchema, openDatabase } from "../db/connect.ts";
import { migrationsCurrent } from "../db/migrate.ts";

/** Connections for every account together: pages run a few queries at once. */
export const ACCOUNTS_POOL = 4;

/** The accounts' connections close once no request has used them for this long. */
export const ACCOUNT_IDLE_MS = 10_000;

export interface OpenAccount {
  name: string;
  db: Database;
  config: Config;
}

/** An account whose schema lacks migrations this version needs: nothing of it is read or changed. */
export class SchemaBehindError extends Error {
  readonly code = "SCHEMA_BEHIND";
  readonly statusCode = 503;
  constructor(
    readonly account: string,
    readonly schema: string,
  ) {
    super(
      `The database schema of account ${account} (${schema}) is behind this version of regwatch: run \`regwatch migrate\`, then reload this page. Nothing was read or changed.`,
    );
    this.name = "SchemaBehindError";
  }
}

export class AccountDirectory {
  private readonly byName: Map<string, Account>;
  private pool: Promise<Database> | undefined;
  /** Schemas found current: they stay so while this version runs. */
  private readonly current = new Set<string>();

  constructor(
    private readonly base: Config,
    accounts: readonly Account[],
    private readonly idleMs = ACCOUNT_IDLE_MS,
  ) {
    this.byName = new Map(accounts.map((a) => [a.name, a]));
  }

  /** Whether the accounts file lists `name`. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /**
   * The account's connection and configuration, for the request `holder` belongs to (kept for
   * the interface: the shared pool needs nothing released).
   */
  async open(name: string, holder: EventEmitter): Promise<OpenAccount> {
    void holder;
    const account = this.byName.get(name);
    if (!account) throw new Error(`no account "${name}" in the accounts file`);
    // The console never calls the registry, so it reads no key: an account whose key variable is
    // set only where its worker runs is shown all the same.
    const config = accountSettings(this.base, account);
    const db = forSchema(await this.shared(), config.schema);
    if (!this.current.has(db.schema)) {
      if (!(await migrationsCurrent(db.sql, db.schema))) throw new SchemaBehindError(name, db.schema);
      this.current.add(db.schema);
    }
    return { name, db, config };
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    await (await pool?.catch(() => undefined))?.close();
  }

  private shared(): Promise<Database> {
    this.pool ??= openDatabase(
      { ...this.base, schema: DEFAULT_SCHEMA },
      { max: ACCOUNTS_POOL, idleTimeoutS: this.idleMs / 1000 },
    );
    this.pool.catch(() => {
      this.pool = undefined;
    });
    return this.pool;
  }
}

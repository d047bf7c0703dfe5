/**
 * The accounts the console can show when regwatch serves an accounts file: each account's
 * Database (its own schema, a small pool) is opened when a request shows it and closed once no
 * request has used it for a while (db/idle-sessions.ts, as the fleet's worker keeps its
 * accounts), so viewing many accounts never holds a pool for each. The console never migrates
 * in a request: `regwatch migrate` and the console's start do; an account whose schema is behind
 * is refused with SchemaBehindError, which the console shows as a page saying so. Which user may
 * see which account is decided elsewhere (auth.ts); this only knows the accounts and their connections.
 */
import type { EventEmitter } from "node:events";
import { type Account, accountSettings } from "../accounts.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/connect.ts";
import { openDatabase } from "../db/connect.ts";
import { IdleClosingSessions } from "../db/idle-sessions.ts";
import { migrationsCurrent } from "../db/migrate.ts";

/** Connections per account: pages run a few queries at once, the account's own work runs elsewhere. */
const ACCOUNT_POOL = 4;

/** An account's pool is closed once no request has used it for this long. */
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
  private readonly sessions: IdleClosingSessions;

  constructor(
    private readonly base: Config,
    accounts: readonly Account[],
    idleMs = ACCOUNT_IDLE_MS,
  ) {
    this.byName = new Map(accounts.map((a) => [a.name, a]));
    this.sessions = new IdleClosingSessions((name) => this.connect(name), idleMs);
  }

  /** Whether the accounts file lists `name`. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /**
   * The account's connection and configuration, held until `holder` (the request's response)
   * emits 'close': a streamed download keeps it until its last byte or its client's leaving.
   */
  async open(name: string, holder: EventEmitter): Promise<OpenAccount> {
    const account = this.byName.get(name);
    if (!account) throw new Error(`no account "${name}" in the accounts file`);
    const held = await this.sessions.use(name);
    holder.once("close", held.release);
    return { name, db: held.db, config: accountSettings(this.base, account) };
  }

  /** Accounts whose pool is open now (in use, or idle and not closed yet). */
  get openCount(): number {
    return this.sessions.size;
  }

  close(): Promise<void> {
    return this.sessions.closeAll();
  }

  private async connect(name: string): Promise<Database> {
    const account = this.byName.get(name)!;
    // The console never calls the registry, so it reads no key: an account whose key variable is
    // set only where its worker runs is shown all the same.
    const db = await openDatabase(accountSettings(this.base, account), { max: ACCOUNT_POOL });
    try {
      if (!(await migrationsCurrent(db.sql, db.schema))) throw new SchemaBehindError(name, db.schema);
    } catch (error) {
      await db.close();
      throw error;
    }
    return db;
  }
}

/**
 * The accounts the console can show when regwatch serves an accounts file: each account's
 * Database (its own schema, a small pool) is opened the first time someone looks at it and kept
 * until the console closes. Which user may see which account is decided elsewhere (auth.ts);
 * this only knows the accounts and their connections.
 */
import { type Account, accountSettings } from "../accounts.ts";
import type { Config } from "../config.ts";
import { type Database, openDatabase } from "../db/connect.ts";
import { migrationsCurrent, runMigrations } from "../db/migrate.ts";

/** Connections per account: pages run a few queries at once, the account's own work runs elsewhere. */
const ACCOUNT_POOL = 4;

export interface OpenAccount {
  name: string;
  db: Database;
  config: Config;
}

export class AccountDirectory {
  private readonly byName: Map<string, Account>;
  private readonly opened = new Map<string, Promise<OpenAccount>>();

  constructor(
    private readonly base: Config,
    accounts: readonly Account[],
  ) {
    this.byName = new Map(accounts.map((a) => [a.name, a]));
  }

  /** Whether the accounts file lists `name`. */
  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The account's connection and configuration, opened (and migrated) on first use. */
  open(name: string): Promise<OpenAccount> {
    const account = this.byName.get(name);
    if (!account) return Promise.reject(new Error(`no account "${name}" in the accounts file`));
    let opening = this.opened.get(name);
    if (!opening) {
      opening = this.connect(account);
      // A failed open (the database down for a moment) is tried again by the next request.
      opening.catch(() => this.opened.delete(name));
      this.opened.set(name, opening);
    }
    return opening;
  }

  async close(): Promise<void> {
    const all = [...this.opened.values()];
    this.opened.clear();
    const settled = await Promise.allSettled(all);
    await Promise.all(settled.map((s) => (s.status === "fulfilled" ? s.value.db.close() : undefined)));
  }

  private async connect(account: Account): Promise<OpenAccount> {
    // The console never calls the registry, so it reads no key: an account whose key variable is
    // set only where its worker runs is shown all the same.
    const config = accountSettings(this.base, account);
    const db = await openDatabase(config, { max: ACCOUNT_POOL });
    try {
      if (!(await migrationsCurrent(db.sql, db.schema))) await runMigrations(db.url, db.schema);
    } catch (error) {
      await db.close();
      throw error;
    }
    return { name: account.name, db, config };
  }
}

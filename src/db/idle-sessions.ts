/**
 * Database sessions kept per key (an account's schema) while they are in use and closed a while
 * after their last user let go, so a process that serves many accounts holds connections only
 * for those it is working for (Postgres's 100 connections by default are shared by the fleet).
 * The fleet's worker and the console both keep their accounts' sessions this way.
 */
import type { Database } from "./connect.ts";

interface Entry {
  db: Promise<Database>;
  users: number;
  idle?: NodeJS.Timeout;
}

export interface HeldSession {
  db: Database;
  /** Lets go of the session; the last user's release starts its idle countdown. */
  release: () => void;
}

export class IdleClosingSessions {
  private readonly open = new Map<string, Entry>();

  /**
   * `connect`: opens the key's session (checks or migrations included); `idleMs`: how long a
   * session nobody uses is kept before it is closed.
   */
  constructor(
    private readonly connect: (key: string) => Promise<Database>,
    private readonly idleMs: number,
  ) {}

  /** The key's session, opened by its first user; a failed open is tried again by the next. */
  async use(key: string): Promise<HeldSession> {
    let entry = this.open.get(key);
    if (!entry) {
      entry = { db: this.connect(key), users: 0 };
      this.open.set(key, entry);
    }
    const current = entry;
    clearTimeout(current.idle);
    current.users++;
    try {
      const db = await current.db;
      let released = false;
      return {
        db,
        release: () => {
          if (released) return;
          released = true;
          this.release(key, current);
        },
      };
    } catch (error) {
      current.users--;
      if (this.open.get(key) === current) this.open.delete(key);
      throw error;
    }
  }

  /** How many sessions are open now (in use or waiting out their idle time). */
  get size(): number {
    return this.open.size;
  }

  async closeAll(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    for (const entry of all) clearTimeout(entry.idle);
    await Promise.allSettled(all.map(async (entry) => (await entry.db).close()));
  }

  private release(key: string, entry: Entry): void {
    entry.users--;
    if (entry.users > 0) return;
    entry.idle = setTimeout(() => {
      if (this.open.get(key) !== entry || entry.users > 0) return;
      this.open.delete(key);
      void entry.db.then((db) => db.close()).catch(() => {});
    }, this.idleMs);
    entry.idle.unref();
  }
}

/**
 * The shipped migrations as the migrator applies them: the journal's entries in order, each file
 * split at drizzle's statement breakpoints, with drizzle's hash (SHA-256 of the file) and its
 * `when` as the journal's created_at, so journals written by drizzle's migrator and by regwatch's
 * read the same. Read once per process.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";

export interface Migration {
  tag: string;
  sql: string[];
  hash: string;
  folderMillis: number;
}

const cache = new Map<string, Migration[]>();

export function readMigrations(folder: string): Migration[] {
  const known = cache.get(folder);
  if (known) return known;
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  const migrations = journal.entries.map((entry) => {
    const text = readFileSync(path.join(folder, `${entry.tag}.sql`), "utf8");
    return {
      tag: entry.tag,
      sql: text.split("--> statement-breakpoint").filter((s) => s.trim() !== ""),
      hash: createHash("sha256").update(text).digest("hex"),
      folderMillis: entry.when,
    };
  });
  cache.set(folder, migrations);
  return migrations;
}

/** The migrations a journal whose newest entry is `newest` (none: undefined) still lacks. */
export function pendingMigrations(migrations: readonly Migration[], newest: number | undefined): Migration[] {
  return migrations.filter((m) => newest === undefined || m.folderMillis > newest);
}

/**
 * Migration 0014 gives every change file the list of its changes and drops changes_path: a
 * database written before it must come out with each file linked to exactly its changes.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER, runMigrations } from "../src/db/migrate.ts";
import { createEmptyDatabase } from "./helpers/db.ts";
import { wrongFileLinks } from "./helpers/file-links.ts";

/** The migrations folder as it was before `tag`. */
async function migrationsBefore(tag: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "rw-migrations-"));
  await cp(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalPath = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  await writeFile(journalPath, JSON.stringify(journal));
  return dir;
}

describe("migration 0014 (files know their changes)", () => {
  let target: Awaited<ReturnType<typeof createEmptyDatabase>>;
  let sql: postgres.Sql;
  let older: string;

  beforeAll(async () => {
    target = await createEmptyDatabase();
    sql = postgres(target.url, { max: 1, onnotice: () => {}, connection: { search_path: "regwatch" } });
    older = await migrationsBefore("0014_files_know_their_changes");
  });
  afterAll(async () => {
    await sql.end();
    await target.drop();
    await rm(older, { recursive: true, force: true });
  });

  it("links every stored file to its changes and their newest day, and drops changes_path", async () => {
    await migrate(drizzle(sql), { migrationsFolder: older });
    await sql`
      insert into regwatch.changes (tax_id, change_date, chapter, path, raw) values
        ('10000001', '2024-03-05', '1', 'https://files.example/a.json', '{}'),
        ('10000002', '2024-03-07', '1', 'https://files.example/a.json', '{}'),
        ('10000003', '2024-02-01', '1', 'https://files.example/b.json', '{}')`;
    await sql`
      insert into regwatch.change_files (path, status) values
        ('https://files.example/a.json', 'fetched'), ('https://files.example/b.json', 'pending')`;

    await runMigrations(target.url);

    expect(await wrongFileLinks(sql as never)).toEqual([]);
    const files = await sql<{ path: string; n: number; newest: string; status: string }[]>`
      select path, cardinality(change_ids) as n, newest_change::text as newest, status
      from regwatch.change_files order by path`;
    expect(files).toEqual([
      { path: "https://files.example/a.json", n: 2, newest: "2024-03-07", status: "fetched" },
      { path: "https://files.example/b.json", n: 1, newest: "2024-02-01", status: "pending" },
    ]);
    const [index] = await sql`select to_regclass('regwatch.changes_path') is null as gone`;
    expect(index!.gone).toBe(true);
  });
});

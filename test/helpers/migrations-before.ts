import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { MIGRATIONS_FOLDER } from "../../src/db/migrate.ts";

/**
 * A copy of the migrations folder as it was before `tag` (its journal cut there), so a test can
 * write data in an older schema and then migrate it. The caller removes the folder.
 */
export async function migrationsBefore(tag: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "rw-migrations-"));
  await cp(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalPath = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  if (at <= 0) throw new Error(`no migration ${tag} after the first in ${MIGRATIONS_FOLDER}`);
  journal.entries = journal.entries.slice(0, at);
  await writeFile(journalPath, JSON.stringify(journal));
  return dir;
}

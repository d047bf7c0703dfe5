/**
 * Writes migrations/baseline.sql (`npm run db:baseline`): schema `regwatch` as every shipped
 * migration builds it, dumped by pg_dump as the statements that build it directly, which the
 * migrator uses for fresh schemas (src/db/migration-baseline.ts). Run it after adding a
 * migration; test/db/migration-baseline.test.ts fails until it is run, and checks that the
 * baseline builds what the migrations build.
 *
 * It needs a Postgres server (DATABASE_URL, else TEST_DATABASE_URL), on which it creates and then
 * drops a database of its own, and that server's pg_dump (or a newer one) on the PATH, or
 * REGWATCH_PG_DUMP naming it. Dump with the oldest Postgres regwatch supports, so that the file
 * holds no syntax a newer one added.
 */
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import postgres from "postgres";
import { MIGRATIONS_FOLDER, runMigrations } from "../src/db/migrate.ts";
import { BASELINE_FILE, baselineHeader } from "../src/db/migration-baseline.ts";
import { readMigrations } from "../src/db/migration-files.ts";

const run = promisify(execFile);

const ABOUT = `-- Schema regwatch as the migrations above build it, written by \`npm run db:baseline\`
-- (scripts/migration-baseline.ts) from pg_dump; do not edit. A fresh schema is built from it
-- instead of those migrations (src/db/migration-baseline.ts).
`;

/**
 * The baseline file's text from pg_dump's plain-format dump of schema `regwatch`: its header of
 * session settings and psql commands dropped (the migrator's transaction sets what it needs),
 * and pg_dump's comment blocks naming each object; every statement kept as pg_dump wrote it.
 * Throws on a session setting anywhere after the header, which would leak out of the migration
 * through a pooler.
 */
export function baselineFromDump(dump: string, header: string): string {
  const lines = dump.split("\n");
  const kept: string[] = [];
  let inHeader = true;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("\\")) continue; // psql's \restrict and \unrestrict
    if (inHeader) {
      if (line === "" || line.startsWith("--") || /^(SET |SELECT pg_catalog\.set_config\()/.test(line))
        continue;
      inHeader = false;
    }
    if (line === "--" && lines[i + 1]?.startsWith("-- ") && lines[i + 2] === "--") {
      i += 2; // pg_dump's "-- Name: ...; Type: ...; Schema: ...; Owner: ..." block
      continue;
    }
    if (/^(SET |SELECT pg_catalog\.set_config\()/.test(line))
      throw new Error(`pg_dump wrote a session setting inside the dump: ${line}`);
    kept.push(line);
  }
  const body = kept
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return `${header}${ABOUT}\n${body}\n`;
}

async function main(): Promise<void> {
  const serverUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error("set DATABASE_URL or TEST_DATABASE_URL to a Postgres server");
  const name = `regwatch_baseline_${process.pid}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    await admin.unsafe(`create database "${name}"`);
    await runMigrations(url.href, "regwatch", { baseline: null });
    // The password goes to pg_dump in its environment: a failed run's message repeats its
    // command line, which must not carry it.
    const password = decodeURIComponent(url.password);
    url.password = "";
    const { stdout } = await run(
      process.env.REGWATCH_PG_DUMP ?? "pg_dump",
      [
        "--schema-only",
        "--schema=regwatch",
        "--no-owner",
        "--no-privileges",
        "--no-tablespaces",
        "--no-table-access-method",
        "--no-security-labels",
        `--dbname=${url.href}`,
      ],
      {
        maxBuffer: 64 * 1024 * 1024,
        env: password === "" ? process.env : { ...process.env, PGPASSWORD: password },
      },
    );
    const migrations = readMigrations(MIGRATIONS_FOLDER);
    const file = path.join(MIGRATIONS_FOLDER, BASELINE_FILE);
    await writeFile(file, baselineFromDump(stdout, baselineHeader(migrations)));
    console.log(`wrote ${file}: ${migrations.length} migrations, through ${migrations.at(-1)?.tag}`);
  } finally {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();

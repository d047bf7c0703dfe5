/**
 * The Postgres a benchmark runs on, and freshly migrated databases on it.
 * - A measured run: DATABASE_URL's server, else an embedded one in a temp dir (removed when stopped).
 *   Its scenario databases (regwatch_bench_*) are kept for inspection until the next run.
 * - A smoke run (`--smoke`): the tests' rule, TEST_DATABASE_URL's server, else an embedded one.
 *   Its databases are named for this process (so runs beside each other, or beside the tests,
 *   never drop each other's) and dropped when it stops.
 * Each scenario's database is a clone of one database migrated once per run (migrating takes about
 * a second; a clone of a schema-only database, tens of milliseconds).
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { startEmbedded } from "../src/db/embedded.ts";
import { runMigrations } from "../src/db/migrate.ts";

export interface BenchServer {
  url: string;
  /** Drops and recreates a database for scenario `name` (e.g. regwatch_bench_daily), migrated: its URL. */
  database(name: string): Promise<string>;
  stop(): Promise<void>;
}

export async function benchServer(options: { smoke?: boolean } = {}): Promise<BenchServer> {
  const smoke = options.smoke === true;
  const given = smoke ? process.env.TEST_DATABASE_URL : process.env.DATABASE_URL;
  if (given) return databasesOn(given, smoke, async () => {});
  const dir = await mkdtemp(path.join(tmpdir(), "regwatch-bench-"));
  await chmod(dir, 0o755);
  const embedded = await startEmbedded(dir);
  // The whole server goes with its directory: nothing of it needs dropping first.
  return databasesOn(embedded.url, false, async () => {
    await embedded.stop();
    await rm(dir, { recursive: true, force: true });
  });
}

function databasesOn(serverUrl: string, smoke: boolean, stopServer: () => Promise<void>): BenchServer {
  const prefix = smoke ? `regwatch_smoke_${process.pid}_` : "regwatch_bench_";
  const template = `${prefix}template`;
  const made = new Set<string>();
  let migrated: Promise<string> | undefined;
  return {
    url: serverUrl,
    async database(name) {
      migrated ??= freshDatabase(serverUrl, template);
      await migrated;
      const own = prefix + name.replace(/^regwatch_bench_/, "");
      made.add(own);
      return cloneDatabase(serverUrl, template, own);
    },
    async stop() {
      try {
        if (migrated) await dropDatabases(serverUrl, smoke ? [template, ...made] : [template]);
      } finally {
        await stopServer();
      }
    },
  };
}

/** Drops and recreates database `name` on the server, migrated; its URL. */
export async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  await admin(serverUrl, async (sql) => {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
    await sql.unsafe(`create database "${name}"`);
  });
  const url = databaseUrl(serverUrl, name);
  await runMigrations(url);
  return url;
}

async function cloneDatabase(serverUrl: string, template: string, name: string): Promise<string> {
  await admin(serverUrl, async (sql) => {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
    await sql.unsafe(`create database "${name}" template "${template}"`);
  });
  return databaseUrl(serverUrl, name);
}

/**
 * Drops databases at once, each on a connection of its own: every drop waits for a checkpoint,
 * and drops that wait together share one (one after another, a busy server takes seconds each).
 */
async function dropDatabases(serverUrl: string, names: string[]): Promise<void> {
  await admin(
    serverUrl,
    (sql) => Promise.all(names.map((name) => sql.unsafe(`drop database if exists "${name}" with (force)`))),
    names.length,
  );
}

async function admin<T>(serverUrl: string, body: (sql: postgres.Sql) => Promise<T>, max = 1): Promise<T> {
  const sql = postgres(serverUrl, { max, onnotice: () => {} });
  try {
    return await body(sql);
  } finally {
    await sql.end();
  }
}

function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

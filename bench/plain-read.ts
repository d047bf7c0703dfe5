/**
 * The latency of one plain read through an account's Sql (src/db/connect.ts): N sequential
 * `select count(*)` of watch_lists, median and p95 in ms, on a freshly migrated database, directly
 * and through PgBouncer in transaction mode when its binary is installed (test/helpers/pgbouncer.ts).
 * Not part of `npm run bench` and writes nothing: it compares the statement path of two builds.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bin/run-ts.js bench/plain-read.ts [N]
 *
 * Works on builds whose statements name the schema (`sql.t`) and on older ones (search_path).
 */
import { existsSync } from "node:fs";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { forSchema, openDatabase, type Sql } from "../src/db/connect.ts";
import { runMigrations } from "../src/db/migrate.ts";
import { PGBOUNCER, startPgBouncer } from "../test/helpers/pgbouncer.ts";

const N = Number(process.argv[2] ?? 2000);
const server = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const NAME = "regwatch_bench_plain_read";

function urlOf(database: string): string {
  const url = new URL(server);
  url.pathname = `/${database}`;
  return url.toString();
}

/** One read of the account's lists, written for either statement path. */
function read(sql: Sql): Promise<unknown> {
  const named = (sql as Partial<Pick<Sql, "t">>).t;
  return named ? sql`select count(*) from ${named.watch_lists}` : sql`select count(*) from watch_lists`;
}

async function measure(url: string, label: string): Promise<void> {
  const home = await openDatabase({ databaseUrl: url, dataDir: "" }, { max: 1 });
  try {
    const db = forSchema(home, "regwatch");
    for (let i = 0; i < 50; i++) await read(db.sql);
    const times: number[] = [];
    for (let i = 0; i < N; i++) {
      const start = performance.now();
      await read(db.sql);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(3);
    process.stdout.write(`${label}: N=${N} median ${at(0.5)} ms, p95 ${at(0.95)} ms\n`);
  } finally {
    await home.close();
  }
}

const admin = postgres(server, { max: 1, onnotice: () => {} });
await admin.unsafe(`drop database if exists ${NAME} with (force)`);
await admin.unsafe(`create database ${NAME}`);
try {
  await runMigrations(urlOf(NAME));
  await measure(urlOf(NAME), "direct");
  if (existsSync(PGBOUNCER)) {
    const bouncer = await startPgBouncer(server);
    try {
      await measure(bouncer.urlFor(NAME), "pgbouncer");
    } finally {
      await bouncer.stop();
    }
  }
} finally {
  await admin.unsafe(`drop database if exists ${NAME} with (force)`);
  await admin.end();
}

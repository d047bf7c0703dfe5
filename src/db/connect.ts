import type { Socket } from "node:net";
import postgres from "postgres";
import { DEFAULT_SCHEMA } from "../account-name.ts";
import type { Config } from "../config.ts";
import { type ScopedSql, type ScopedTx, scopedSql } from "./scoped-sql.ts";
import { closeWhenWritten, withNoDelay } from "./socket.ts";

/** One account's statements: the pool, with `sql.t.x` naming the account's `x` (scoped-sql.ts). */
export type Sql = ScopedSql;
/** A transaction handle (what `sql.begin` passes to its body), with the same `t`. */
export type Tx = ScopedTx;
/** The connections themselves, bound to no schema. */
export type Pool = postgres.Sql;
/** A piece of SQL built with a tagged template, to be placed inside another statement. */
export type Fragment = postgres.Fragment;

export { DEFAULT_SCHEMA };

/** Names this process's connections, so they can be told apart from other processes' ones. */
const APPLICATION_NAME = `regwatch/${process.pid}`;

/** An open database: `sql`, the postgres.js client every statement of src/db/ goes through. */
export interface Database {
  sql: Sql;
  url: string;
  /**
   * The schema every statement reads and writes: statements name it with each table (`sql.t.x`,
   * scoped-sql.ts), so one account's statement never resolves another's.
   */
  schema: string;
  /**
   * The connections under `sql`, which carry no schema of their own: `forSchema` gives another
   * schema's Database over them, so one pool serves every account of a process.
   */
  pool: Pool;
  /** Where the connection came from, for messages (never the URL, which may hold a password). */
  origin: "DATABASE_URL" | "embedded";
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Pool size of the raw SQL client. */
  max?: number;
  /** Seconds after which a connection nobody uses is closed (kept open when not given). */
  idleTimeoutS?: number;
  /**
   * false: the driver does not read the server's array types when it connects (one round trip
   * less on each new connection). Only for a command none of whose statements sends or reads an
   * array: without those types the driver neither parses array columns nor knows array parameters.
   */
  fetchTypes?: boolean;
}

/**
 * Opens the database chosen by one rule (README, Configuration): DATABASE_URL when set, else the
 * embedded Postgres under REGWATCH_DATA_DIR (started here when no other process runs it).
 */
export async function openDatabase(
  config: Pick<Config, "databaseUrl" | "dataDir"> & { schema?: string; embeddedPort?: number },
  options: OpenOptions = {},
): Promise<Database> {
  const schema = config.schema ?? DEFAULT_SCHEMA;
  if (config.databaseUrl) {
    return connect(config.databaseUrl, schema, "DATABASE_URL", options, async () => {});
  }
  // Loaded only here: a command given DATABASE_URL never loads child_process and the rest.
  const { startEmbedded } = await import("./embedded.ts");
  const embedded = await startEmbedded(
    config.dataDir,
    config.embeddedPort === undefined ? {} : { port: config.embeddedPort },
  );
  return connect(embedded.url, schema, "embedded", options, async (sql) => {
    // Leave the server up while any other process (a daemon, a second command) still uses it.
    const [row] = await sql<{ others: number }[]>`
      select count(*)::int as others from pg_stat_activity
      where backend_type = 'client backend' and application_name <> ${APPLICATION_NAME}`.catch(() => [
      { others: 0 },
    ]);
    return (row?.others ?? 0) === 0 ? embedded.stop : undefined;
  });
}

let driverGuardInstalled = false;

/**
 * postgres.js raises a few errors outside any query when the server goes away (see
 * isStrayDriverError). The connection's queries have already failed with them by then, so such a
 * throw carries nothing to report and must not crash the process with a stack trace.
 */
function installDriverGuard(): void {
  if (driverGuardInstalled) return;
  driverGuardInstalled = true;
  const guard = (error: Error) => {
    if (isStrayDriverError(error)) return;
    const stack = error.stack ?? "";
    // Anything else keeps Node's behaviour (unless someone else listens too): report and exit.
    if (process.listenerCount("uncaughtException") > 1) return;
    process.stderr.write(`${stack || String(error)}\n`);
    process.exit(1);
  };
  process.on("uncaughtException", guard);
}

/** A stream whose failures are its own to report: standard output and error. */
type OwnStream = { errored: Error | null };

/**
 * An error the driver raises outside any query when the server goes away; its queries fail on
 * their own (and the run lock's watch ends the run with one message), so it carries nothing more.
 * Known by what it is, never by where it was raised: the driver is bundled into dist/ and has no
 * file of its own to be named in a stack.
 */
export function isStrayDriverError(
  error: Error,
  ownStreams: readonly OwnStream[] = [process.stdout, process.stderr],
): boolean {
  // The server ended the connection (terminated backend, shutdown, failover) while a COPY stream
  // or a finished statement still hung on it: the driver reports it once more outside any query.
  if (isConnectionEnded(error)) return true;
  // A reset or a broken pipe that reached no listener: a socket the driver has let go of (its
  // close removes every listener) was reset by a fast stop or failover, or its buffered write met
  // the reset. Every other socket of regwatch's (HTTP client and server, SMTP) listens for errors
  // as long as it lives; standard output and error do not, and their broken pipe is not the driver's.
  return isSocketReset(error) && !ownStreams.some((stream) => stream.errored === error);
}

/**
 * The driver's own errors for a connection that ended: a PostgresError (the server's error
 * response, known as an instance of the driver's class: bundled, its name is another) with a
 * SQLSTATE of 57P01-03 (terminated, shutting down, cannot connect now), or the driver's connection
 * error CONNECTION_CLOSED (which repeats its code as `errno`).
 */
function isConnectionEnded(error: Error): boolean {
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  if (error instanceof postgres.PostgresError) return /^57P0[1-3]$/.test(error.code);
  return code === "CONNECTION_CLOSED" && errno === code;
}

/** A socket's reset or broken pipe as Node raises it: a system error of a read or a write. */
function isSocketReset(error: Error): boolean {
  const { code, syscall, errno } = error as { code?: unknown; syscall?: unknown; errno?: unknown };
  return (
    (code === "ECONNRESET" || code === "EPIPE") &&
    (syscall === "read" || syscall === "write") &&
    typeof errno === "number"
  );
}

/**
 * Another schema's Database over `db`'s connections: its statements run in `schema`, its close
 * does nothing (the pool is `db`'s, closed with it).
 */
export function forSchema(db: Database, schema: string): Database {
  return { ...db, schema, sql: scopedSql(db.pool, schema), close: async () => {} };
}

/**
 * Whether the driver prepares named statements on `url`: not when its query says `prepare=false`
 * (a pooler in transaction mode before PgBouncer 1.21 keeps no prepared statement between
 * transactions). postgres.js reads the parameter itself; the queue's driver is told the same.
 */
export function preparesStatements(url: string): boolean {
  try {
    const value = new URL(url).searchParams.get("prepare");
    return !(value === "false" || value === "disable");
  } catch {
    return true;
  }
}

/**
 * What a pool needs on `url` beyond its own options: on a URL that says `prepare=false` (a pooler in
 * transaction mode), no pipelining. The driver writes a query on a connection whose earlier query
 * is still answering; a pooler in transaction mode hands the server to another client at the
 * earlier query's end, so what was written behind it is lost, and a query with parameters, which
 * without prepared statements first asks the server to describe it, waits for an answer that never
 * comes (seen with PgBouncer 1.18: the job holding that query hung for good).
 */
export function poolerOptions(url: string): { max_pipeline?: number } {
  return preparesStatements(url) ? {} : { max_pipeline: 0 };
}

function connect(
  url: string,
  schema: string,
  origin: Database["origin"],
  options: OpenOptions,
  beforeClose: (sql: Sql) => Promise<(() => Promise<void>) | undefined | void>,
): Database {
  installDriverGuard();
  // No search_path among the connection's parameters: statements name their schema, so the pool
  // may serve several accounts and a pooler in transaction mode may carry it.
  const opened = new Set<Socket>();
  const common = withNoDelay(
    { onnotice: () => {}, connection: { application_name: APPLICATION_NAME } },
    opened,
  );
  const pool = postgres(url, {
    ...common,
    ...poolerOptions(url),
    max: options.max ?? 10,
    ...(options.idleTimeoutS === undefined ? {} : { idle_timeout: options.idleTimeoutS }),
    ...(options.fetchTypes === false ? { fetch_types: false } : {}),
  });
  const sql = scopedSql(pool, schema);
  let closed = false;
  return {
    sql,
    pool,
    url,
    schema,
    origin,
    async close() {
      if (closed) return;
      closed = true;
      const after = await beforeClose(sql);
      closeWhenWritten(opened);
      await pool.end({ timeout: 5 });
      if (after) await after();
    },
  };
}

/**
 * A PgBouncer of the test's own (Debian's `pgbouncer` package, /usr/sbin/pgbouncer) in transaction
 * mode, in front of the test Postgres: a generated config on a free port, clients accepted without
 * a password (auth_type any) and passed on to the server as the test server's own user. Started as
 * root (CI), it drops to user nobody, as PgBouncer refuses to run as root.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";

export const PGBOUNCER = "/usr/sbin/pgbouncer";

export interface Bouncer {
  /** `serverUrl`'s database through the pooler, with prepare=false (PgBouncer 1.18 keeps none). */
  urlFor(database: string): string;
  /** Everything PgBouncer logged. */
  log(): string;
  /** Kills PgBouncer at once (SIGKILL): its clients' and servers' sockets are cut, nothing is said. */
  kill(): Promise<void>;
  /** Starts it again on the same port with the same config; resolves once a query passes it. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `poolSize`: server connections per database and user (PgBouncer's default_pool_size; 20 unless given). */
export async function startPgBouncer(
  serverUrl: string,
  options: { poolSize?: number } = {},
): Promise<Bouncer> {
  if (!existsSync(PGBOUNCER))
    throw new Error(`${PGBOUNCER} is missing: install Debian's pgbouncer package (.ci/run does)`);
  const server = new URL(serverUrl);
  const dir = mkdtempSync(path.join(tmpdir(), "regwatch-pgbouncer-"));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const target = [
    `host=${server.hostname}`,
    `port=${server.port || "5432"}`,
    `user=${decodeURIComponent(server.username || "postgres")}`,
    ...(server.password ? [`password=${decodeURIComponent(server.password)}`] : []),
  ].join(" ");
  const config = path.join(dir, "pgbouncer.ini");
  writeFileSync(
    config,
    [
      "[databases]",
      `* = ${target}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = any",
      "pool_mode = transaction",
      "max_client_conn = 500",
      `default_pool_size = ${options.poolSize ?? 20}`,
      "",
    ].join("\n"),
  );
  chmodSync(config, 0o644);
  const asRoot = process.getuid?.() === 0;
  let output = "";
  const urlFor = (database: string) => {
    const url = new URL(`postgres://127.0.0.1:${port}/${database}`);
    url.username = server.username || "postgres";
    url.searchParams.set("prepare", "false");
    return url.toString();
  };
  let process_ = await launch();
  const bouncer: Bouncer = {
    urlFor,
    log: () => output,
    async kill() {
      if (process_.child.exitCode === null) process_.child.kill("SIGKILL");
      await process_.exited;
    },
    async restart() {
      await bouncer.kill();
      process_ = await launch();
    },
    async stop() {
      if (process_.child.exitCode === null) process_.child.kill("SIGINT");
      await process_.exited;
    },
  };
  return bouncer;

  async function launch(): Promise<{ child: ChildProcess; exited: Promise<void> }> {
    const child: ChildProcess = spawn(PGBOUNCER, [...(asRoot ? ["-u", "nobody"] : []), config], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (c: Buffer) => {
      output += c;
    });
    child.stderr?.on("data", (c: Buffer) => {
      output += c;
    });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    // Up once a query through it answers.
    for (let attempt = 0; ; attempt++) {
      if (child.exitCode !== null) throw new Error(`pgbouncer exited: ${output}`);
      const probe = postgres(urlFor("postgres"), { max: 1, onnotice: () => {}, connect_timeout: 2 });
      try {
        await probe`select 1`;
        return { child, exited };
      } catch (error) {
        if (attempt > 100) {
          if (child.exitCode === null) child.kill("SIGINT");
          await exited;
          throw new Error(`pgbouncer did not answer: ${String(error)}\n${output}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        await probe.end({ timeout: 1 });
      }
    }
  }
}

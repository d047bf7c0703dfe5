/**
 * The processes of one test run, found through Linux's /proc: every process whose environment or
 * command line names the run's folder (TMPDIR and TEST_RUN_DIR point into it; a Postgres' data
 * directory and Chromium's profile lie in it), and every process below those. `stopRun` ends them
 * synchronously, so that it can run in a signal handler or at exit.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** How every run folder's name begins (test/setup/run-folder.ts makes them). */
export const RUN_FOLDER_PREFIX = "regwatch-tests-";

export interface ProcessInfo {
  pid: number;
  ppid: number;
  /** The kernel's name of the process (`comm`): "postgres", "chromium", "node". */
  name: string;
}

/** How long the run's processes get: SIGTERM's grace, then a Postgres' immediate shutdown's. */
export interface StopTimes {
  termMs: number;
  quitMs: number;
}

const STOP_TIMES: StopTimes = { termMs: 1_000, quitMs: 5_000 };
/** How long a process SIGKILL was sent to is waited for (one in uninterruptible sleep may linger). */
const KILLED_WAIT_MS = 2_000;
/** New processes a dying one started just before the first look are found by looking again. */
const ROUNDS = 3;

/** Every live process of the machine; zombies are dead (only their exit status is left). */
export function liveProcesses(): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  // Without /proc (macOS) no process is found, and only the run's folder is removed.
  for (const entry of existsSync("/proc") ? readdirSync("/proc") : []) {
    if (!/^\d+$/.test(entry)) continue;
    const info = readStat(Number(entry));
    if (info) found.push(info);
  }
  return found;
}

export function isAlive(pid: number): boolean {
  return readStat(pid) !== undefined;
}

/** The run's processes other than this one and its ancestors (vitest's main process, a shell). */
export function processesOfRun(folder: string): ProcessInfo[] {
  // Any other folder (/tmp itself) would be named by processes of other runs and other users.
  if (!path.isAbsolute(folder) || !path.basename(folder).startsWith(RUN_FOLDER_PREFIX))
    throw new Error(`${folder} is not a test run's folder: its processes are not looked for`);
  const all = liveProcesses();
  const byPid = new Map(all.map((p) => [p.pid, p]));
  const spared = new Set<number>();
  for (let p = byPid.get(process.pid); p && !spared.has(p.pid); p = byPid.get(p.ppid)) spared.add(p.pid);
  spared.add(process.pid);
  const children = new Map<number, ProcessInfo[]>();
  for (const p of all) {
    const siblings = children.get(p.ppid);
    if (siblings) siblings.push(p);
    else children.set(p.ppid, [p]);
  }
  const found = new Map<number, ProcessInfo>();
  const take = (p: ProcessInfo): void => {
    if (spared.has(p.pid) || found.has(p.pid)) return;
    found.set(p.pid, p);
    for (const child of children.get(p.pid) ?? []) take(child);
  };
  for (const p of all) if (!spared.has(p.pid) && namesFolder(p.pid, folder)) take(p);
  return [...found.values()];
}

/**
 * Stops the run's processes and returns them. A Postgres server (a postmaster: a `postgres` whose
 * parent is not one) gets SIGQUIT, its immediate shutdown, which ends its children and frees its
 * shared memory; the others get SIGTERM. Whatever is still alive after `termMs` (a postmaster after
 * `quitMs`) gets SIGKILL. Synchronous and bounded: about quitMs + 2 s per round at worst.
 */
export function stopRun(folder: string, times: StopTimes = STOP_TIMES): ProcessInfo[] {
  const stopped = new Map<number, ProcessInfo>();
  for (let round = 0; round < ROUNDS; round++) {
    const running = processesOfRun(folder).filter((p) => !stopped.has(p.pid));
    if (running.length === 0) break;
    stopAll(running, times);
    for (const p of running) stopped.set(p.pid, p);
  }
  return [...stopped.values()];
}

function stopAll(running: ProcessInfo[], times: StopTimes): void {
  const byPid = new Map(running.map((p) => [p.pid, p]));
  const isPostgres = (p: ProcessInfo | undefined) => p?.name === "postgres";
  const postmasters = running.filter(
    (p) => isPostgres(p) && !isPostgres(byPid.get(p.ppid) ?? readStat(p.ppid)),
  );
  // A postmaster's children are its to stop: one killed under it looks like a crash to recover from.
  const owned = new Set<number>();
  const underPostmaster = (p: ProcessInfo): boolean => {
    for (let up = byPid.get(p.ppid); up; up = byPid.get(up.ppid)) if (postmasters.includes(up)) return true;
    return false;
  };
  for (const p of running) if (underPostmaster(p)) owned.add(p.pid);
  const others = running.filter((p) => !postmasters.includes(p) && !owned.has(p.pid));

  for (const p of postmasters) signal(p.pid, "SIGQUIT");
  for (const p of others) signal(p.pid, "SIGTERM");
  const start = performance.now();
  let termOver = false;
  let quitOver = false;
  for (;;) {
    const alive = running.filter((p) => isAlive(p.pid));
    if (alive.length === 0) return;
    const elapsed = performance.now() - start;
    if (!termOver && elapsed >= times.termMs) {
      termOver = true;
      for (const p of others) if (isAlive(p.pid)) signal(p.pid, "SIGKILL");
    }
    if (!quitOver && elapsed >= times.quitMs) {
      quitOver = true;
      for (const p of alive) signal(p.pid, "SIGKILL");
    }
    if (elapsed >= Math.max(times.termMs, times.quitMs) + KILLED_WAIT_MS) return;
    sleepSync(10);
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone already (ESRCH)
  }
}

/** Blocks this thread; a signal handler that must finish before the process exits cannot await. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function readStat(pid: number): ProcessInfo | undefined {
  const text = readText(`/proc/${pid}/stat`);
  if (text === undefined) return undefined;
  // The name may hold spaces and parentheses: the fields after it begin after the last ")".
  const close = text.lastIndexOf(")");
  const [state, ppid] = text.slice(close + 2).split(" ");
  if (state === "Z" || state === "X") return undefined;
  return { pid, ppid: Number(ppid), name: text.slice(text.indexOf("(") + 1, close) };
}

/** Whether the process' environment or command line holds `folder` or a path below it. */
function namesFolder(pid: number, folder: string): boolean {
  for (const part of ["environ", "cmdline"]) {
    const text = readText(`/proc/${pid}/${part}`);
    if (text === undefined) continue;
    for (let at = text.indexOf(folder); at !== -1; at = text.indexOf(folder, at + 1)) {
      // Not /tmp/run-ab within /tmp/run-abc: the path ends there, or goes on below it.
      const next = text[at + folder.length];
      if (next === undefined || next === "/" || next === "\0") return true;
    }
  }
  return false;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, "latin1");
  } catch {
    return undefined; // gone, or another user's (then not ours to stop either)
  }
}

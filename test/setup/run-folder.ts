/**
 * One folder holds every temporary file of a test run: TMPDIR points there for vitest's main
 * process, for the workers it forks after this setup and, through childBaseEnv, for every process a
 * test starts; TEST_RUN_DIR names it as well. When the run ends, or is stopped by Ctrl-C (SIGINT),
 * SIGTERM or SIGHUP, the processes of the run still alive are stopped (test/helpers/run-processes.ts:
 * the embedded Postgres, which leaves the terminal's process group, a console, an emulator,
 * Chromium) and the folder is removed.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { type ProcessInfo, RUN_FOLDER_PREFIX, stopRun } from "../helpers/run-processes.ts";

interface Run {
  folder: string;
  /** vitest's folders of transformed modules, made before this setup in the TMPDIR it started with. */
  vitestFolders: Set<string>;
}

const RUN = Symbol.for("regwatch.testRun");
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

export default function setup(project: TestProject): void {
  // Every project lists this setup first and vitest calls it once per project, in one process: the
  // first call starts the run. Not marked in the environment: a test may start vitest itself.
  const state = globalThis as { [RUN]?: Run };
  state[RUN] ??= startRun();
  const run = state[RUN];
  // vitest removes these when it closes, which an interrupted run does not reach.
  run.vitestFolders.add(project.tmpDir);
  run.vitestFolders.add(project.vitest.getRootProject().tmpDir);
}

function startRun(): Run {
  const folder = mkdtempSync(path.join(tmpdir(), RUN_FOLDER_PREFIX));
  chmodSync(folder, 0o755); // run as root, the embedded Postgres is user postgres, who must enter it
  process.env.TMPDIR = folder;
  process.env.TEST_RUN_DIR = folder;
  const run: Run = { folder, vitestFolders: new Set() };

  let ended = false;
  const end = (signal?: NodeJS.Signals): void => {
    if (ended) return;
    ended = true;
    const stopped = stopRun(folder);
    const notRemoved = [folder, ...run.vitestFolders].flatMap((dir) => {
      const problem = removeFolder(dir);
      return problem ? [`; ${dir} was not removed: ${problem}`] : [];
    });
    const told = `${describe(stopped)}${notRemoved.join("")}`;
    if (signal) process.stderr.write(`\n[test] ${signal}: ${told}\n`);
    else if (stopped.length > 0 || notRemoved.length > 0)
      process.stderr.write(`[test] at the end: ${told}\n`);
  };
  // vitest's own SIGINT and SIGTERM handlers, registered before this one and so called first, only
  // set the exit code and exit a millisecond later: this one, synchronous, ends before that.
  for (const signal of SIGNALS) {
    process.on(signal, () => {
      end(signal);
      process.exit(128 + constants.signals[signal]);
    });
  }
  // After the global teardowns, which stop what the setups started: normally nothing is left.
  process.on("exit", () => end());
  return run;
}

/**
 * Removes `dir`; the reason when it could not. Ctrl-C during the teardowns finds the database
 * teardown's own removal of the Postgres folder running in the thread pool, and rmSync that meets
 * an entry the other removed stops without an error, leaving folders: it goes again, a few times.
 */
function removeFolder(dir: string): string | undefined {
  let problem: string | undefined;
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      rmSync(dir, { recursive: true, force: true });
      problem = undefined;
    } catch (error) {
      problem = (error as Error).message;
    }
    if (!existsSync(dir)) return undefined;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
  }
  return problem ?? "it is still there";
}

function describe(stopped: ProcessInfo[]): string {
  if (stopped.length === 0) return "no process of the run was left";
  const list = stopped.map((p) => `${p.name} ${p.pid}`).join(", ");
  return `stopped ${stopped.length} process${stopped.length === 1 ? "" : "es"} of the run (${list})`;
}

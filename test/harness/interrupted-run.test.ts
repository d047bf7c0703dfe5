/**
 * A test run stopped with Ctrl-C leaves nothing behind: vitest itself is started, on the fixture
 * run of test/fixtures/interrupt/ (the repository's global setups, an embedded Postgres since
 * TEST_DATABASE_URL is not passed on), in a process group of its own as a terminal starts it; once
 * its test holds an emulator, a console, Chromium and a second Postgres, the whole group gets
 * SIGINT. A run that ends by itself removes its folder too, and stops a process a test forgot.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test } from "vitest";
import type { Held } from "../fixtures/interrupt/held.ts";
import { childBaseEnv } from "../helpers/child-env.ts";
import { isAlive, processesOfRun, stopRun } from "../helpers/run-processes.ts";
import { waitUntil } from "../helpers/wait.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const VITEST = fileURLToPath(new URL("../../node_modules/vitest/vitest.mjs", import.meta.url));
const CONFIG = fileURLToPath(new URL("../fixtures/interrupt/vitest.config.ts", import.meta.url));

interface FixtureRun {
  child: ChildProcess;
  /** The TMPDIR it starts with: its run's folder and vitest's own are made in it. */
  tmp: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

let run: FixtureRun | undefined;
let held: Held | undefined;

afterEach(() => {
  if (!run) return;
  // After a failed test, neither the fixture run nor what it holds waits for the outer run's end.
  if (run.child.exitCode === null && run.child.signalCode === null) process.kill(-run.child.pid!, "SIGKILL");
  if (held?.folder.startsWith(`${run.tmp}${path.sep}`)) stopRun(held.folder);
  rmSync(run.tmp, { recursive: true, force: true });
  run = undefined;
  held = undefined;
});

function startFixtureRun(mode: "hold" | "leak"): FixtureRun {
  // Short: Chromium's socket in it must be a path of at most 107 bytes.
  const tmp = mkdtempSync(path.join(tmpdir(), "run-"));
  chmodSync(tmp, 0o755); // for the embedded Postgres' user, as the run's folder is
  const child = spawn(process.execPath, [VITEST, "run", "--config", CONFIG], {
    cwd: ROOT,
    detached: true, // a process group of its own, as a terminal's command line is
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...childBaseEnv(), TMPDIR: tmp, TEST_POSTGRES: "embedded", INTERRUPT_FIXTURE: mode },
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  return { child, tmp, output: () => output, exited };
}

/** What the holding test reported, and the folder the second project's test saw as its own. */
async function ready(fixture: FixtureRun): Promise<{ held: Held; lightFolder: string }> {
  return waitUntil(
    () => {
      // Whole lines only: a chunk may end inside one.
      const readyLine = /^READY (.+)\n/m.exec(fixture.output());
      const tmpLine = /^TMPDIR (.+)\n/m.exec(fixture.output());
      return readyLine && tmpLine && { held: JSON.parse(readyLine[1]!) as Held, lightFolder: tmpLine[1]! };
    },
    { what: "the fixture run's READY", process: fixture.child, everyMs: 50 },
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${fixture.output()}`);
  });
}

function refuses(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

async function expectNothingLeft(fixture: FixtureRun, left: Held): Promise<void> {
  const alive = Object.entries(left.pids).filter(([, pid]) => isAlive(pid));
  expect(alive).toEqual([]);
  expect(processesOfRun(left.folder)).toEqual([]);
  expect(path.dirname(left.folder)).toBe(fixture.tmp);
  expect(existsSync(left.folder)).toBe(false);
  expect(readdirSync(fixture.tmp)).toEqual([]); // nor vitest's own folders
  for (const [what, port] of Object.entries(left.ports))
    expect([what, await refuses(port)]).toEqual([what, true]);
}

// The processes of a run are found through Linux's /proc.
describe.skipIf(process.platform !== "linux")("a test run", () => {
  test("stopped by Ctrl-C leaves no process and no folder behind", async () => {
    run = startFixtureRun("hold");
    const seen = await ready(run);
    held = seen.held;
    expect(seen.lightFolder).toBe(held.folder); // one folder for both projects
    expect(Object.keys(held.pids).filter((name) => name.startsWith("postgres"))).toHaveLength(2);
    process.kill(-run.child.pid!, "SIGINT");
    const exit = await run.exited;
    expect(exit, run.output()).toEqual({ code: 130, signal: null });
    await expectNothingLeft(run, held);
    expect(run.output()).toMatch(/\[test\] SIGINT: stopped \d+ processes of the run/);
  });

  test("that ends by itself removes its folder and stops what a test forgot", async () => {
    run = startFixtureRun("leak");
    const exit = await run.exited;
    expect(exit, run.output()).toEqual({ code: 0, signal: null });
    const seen = await ready(run);
    held = seen.held;
    expect(seen.lightFolder).toBe(held.folder);
    await expectNothingLeft(run, held);
    expect(run.output()).toMatch(/\[test\] at the end: stopped 1 process of the run \(node\S* \d+\)/);
  });
});

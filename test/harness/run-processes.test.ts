/**
 * Which processes belong to a run's folder, and that stopping them ends even one that ignores
 * SIGTERM, on real processes: one naming the folder in its environment, its child that does not,
 * and a bystander naming a folder whose name merely begins like the run's.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, expect, test } from "vitest";
import { isAlive, processesOfRun, RUN_FOLDER_PREFIX, stopRun } from "../helpers/run-processes.ts";
import { waitUntil } from "../helpers/wait.ts";

const started: ChildProcess[] = [];
const folders: string[] = [];

afterEach(() => {
  for (const child of started.splice(0)) if (child.pid && isAlive(child.pid)) child.kill("SIGKILL");
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function start(code: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ["-e", code], { env, stdio: ["ignore", "pipe", "inherit"] });
  started.push(child);
  return child;
}

// Found through Linux's /proc.
test.skipIf(process.platform !== "linux")(
  "a run's processes are those naming its folder and theirs; stopping them ends all",
  async () => {
    const folder = mkdtempSync(path.join(tmpdir(), RUN_FOLDER_PREFIX));
    folders.push(folder);
    // Deaf to SIGTERM; its child, started without the run's environment, prints nothing of it either.
    const deaf = start(
      `process.on("SIGTERM", () => {});
     const child = require("node:child_process").spawn(process.execPath, ["-e", "setInterval(() => {}, 60000)"], { env: {}, stdio: "ignore" });
     console.log(child.pid);
     setInterval(() => {}, 60000);`,
      { TEST_RUN_DIR: folder },
    );
    const bystander = start("setInterval(() => {}, 60000)", { OTHER: `${folder}x` });
    let printed = "";
    deaf.stdout!.on("data", (chunk: Buffer) => {
      printed += chunk.toString();
    });
    const grandchild = Number(
      await waitUntil(() => /^\d+\n/.exec(printed)?.[0], { what: "the child's pid", process: deaf }),
    );

    const found = processesOfRun(folder).map((p) => p.pid);
    expect(found.sort()).toEqual([deaf.pid, grandchild].sort());
    const stopped = stopRun(folder, { termMs: 100, quitMs: 100 });
    expect(stopped.map((p) => p.pid).sort()).toEqual([deaf.pid, grandchild].sort());
    expect([isAlive(deaf.pid!), isAlive(grandchild), isAlive(bystander.pid!)]).toEqual([false, false, true]);
  },
);

test("a folder that is not a run's is refused", () => {
  expect(() => stopRun("/tmp")).toThrow(/not a test run's folder/);
  expect(() => processesOfRun(`${RUN_FOLDER_PREFIX}abc`)).toThrow(/not a test run's folder/); // relative
});

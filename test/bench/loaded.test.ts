/**
 * `npm run bench -- --loaded`'s busy process (bench/loaded.ts): it runs while the bench does and is
 * gone after every way the bench can end: `stop`, `process.exit`, a signal, and the bench killed
 * outright (SIGKILL: the child sees its channel close and leaves on its own).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { startLoad } from "../../bench/loaded.ts";
import { waitUntil } from "../helpers/wait.ts";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const runTs = fileURLToPath(new URL("../../bin/run-ts.js", import.meta.url));
const benchLike = fileURLToPath(new URL("./loaded-holder.ts", import.meta.url));

/** A process that starts the load, prints its pid, then ends as `how` says (or waits to be killed). */
async function holder(how: string): Promise<{ pid: number; load: number; ended: Promise<number | null> }> {
  const child = spawn(process.execPath, [runTs, benchLike, how], { stdio: ["ignore", "pipe", "ignore"] });
  const ended = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  await waitUntil(() => /load (\d+)\n/.test(out), { what: "the load's pid", process: child });
  return { pid: child.pid!, load: Number(/load (\d+)\n/.exec(out)![1]), ended };
}

describe("the bench's load process", () => {
  it("spins until stopped, and stop waits until it is gone", async () => {
    const load = await startLoad();
    expect(alive(load.pid)).toBe(true);
    await load.stop();
    expect(alive(load.pid)).toBe(false);
    await load.stop();
  });

  it("is killed when the bench exits, is signalled or is killed outright", async () => {
    for (const how of ["exit", "throw", "SIGTERM", "SIGINT", "SIGKILL"]) {
      const bench = await holder(how);
      expect(alive(bench.load)).toBe(true);
      if (how.startsWith("SIG")) process.kill(bench.pid, how as NodeJS.Signals);
      const code = await bench.ended;
      if (how === "SIGTERM") expect(code).toBe(143);
      if (how === "SIGINT") expect(code).toBe(130);
      await waitUntil(() => !alive(bench.load), { what: `the load gone after ${how}` });
    }
  });
});

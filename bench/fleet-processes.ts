/**
 * The fleet bench's processes: the published `regwatch` (bin/regwatch.js) run to its end
 * (`migrate`, `enqueue`), and `regwatch worker` processes started and stopped as an operator would.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { PRODUCT_BIN } from "./product-bin.ts";

export type Env = Record<string, string>;

function baseEnv(env: Env): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, REGWATCH_LOG_LEVEL: "warn", ...env };
}

/** Runs `regwatch ARGS` to its end; throws with its error output when it does not exit 0. */
export function regwatch(args: string[], env: Env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(PRODUCT_BIN, args, { env: baseEnv(env), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`regwatch ${args.join(" ")} exited ${code}: ${stderr.slice(-2000)}`));
    });
  });
}

export interface Workers {
  /** SIGTERM to each, then waits for every one to exit; their error output when any failed. */
  stop(): Promise<void>;
  /** Error output of a worker that exited on its own (none should, until stopped). */
  exited(): string | undefined;
  /** CPU seconds (user and system) the workers have used so far, read from /proc. */
  cpuSeconds(): number;
}

// Linux counts a process's CPU time in ticks of 1/100 s (USER_HZ).
const TICKS_PER_S = 100;

/** User and system CPU seconds of a live process; 0 where /proc cannot tell. */
export function processCpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th of them.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  } catch {
    return 0;
  }
}

/** Starts `count` processes of `regwatch worker --concurrency N` (1 unless given). */
export function startWorkers(count: number, env: Env, concurrency = 1): Workers {
  const children: { child: ChildProcess; stderr: string; code: number | null | undefined }[] = [];
  let stopping = false;
  for (let i = 0; i < count; i++) {
    const child = spawn(PRODUCT_BIN, ["worker", "--concurrency", String(concurrency)], {
      env: baseEnv(env),
      stdio: ["ignore", "ignore", "pipe"],
    });
    const state = { child, stderr: "", code: undefined as number | null | undefined };
    child.stderr!.on("data", (c: Buffer) => {
      state.stderr = (state.stderr + c.toString()).slice(-4000);
    });
    child.on("exit", (code) => {
      state.code = code;
    });
    children.push(state);
  }
  return {
    cpuSeconds: () => children.reduce((n, c) => n + processCpuSeconds(c.child.pid), 0),
    exited: () => {
      if (stopping) return undefined;
      const gone = children.find((c) => c.code !== undefined);
      return gone ? `a worker exited ${gone.code}: ${gone.stderr}` : undefined;
    },
    stop: async () => {
      stopping = true;
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.code !== undefined) return resolve();
              c.child.once("exit", () => resolve());
              c.child.kill("SIGTERM");
            }),
        ),
      );
      const failed = children.find((c) => c.code !== 0 && c.code !== null);
      if (failed) throw new Error(`a worker stopped with exit ${failed.code}: ${failed.stderr}`);
    },
  };
}

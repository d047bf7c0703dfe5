/**
 * Start times from the compiled build, as a user starts it: `startup_s` is the median wall time of
 * `regwatch --help` (built from the current sources first, bench/product-bin.ts), and
 * `node_start_s` that of `node -e 0` in the same environment, the floor no command can go under
 * on the machine that ran the bench (it was 0.024 s where the targets were set, 0.035-0.045 s on
 * slower hosts).
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { PRODUCT_BIN as BIN, buildProduct } from "./product-bin.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The median wall time, in seconds to the millisecond, of `runs` starts of Node with `args`. */
function medianStart(args: string[], env: Record<string, string | undefined>, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    times.push(performance.now() - started);
    if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)]!) / 1000;
}

const baseEnv = () => ({ PATH: process.env.PATH, HOME: process.env.HOME });

export function startupSeconds(runs = 5): { startup_s: number; node_start_s: number; startup_runs: number } {
  buildProduct();
  return {
    startup_s: medianStart([BIN, "--help"], baseEnv(), runs),
    node_start_s: medianStart(["-e", "0"], baseEnv(), runs),
    startup_runs: runs,
  };
}

/**
 * Start-and-answer time of `regwatch status` from the compiled build against a migrated database
 * (the median of `runs`): what an operator waits for the cheapest command that reads the database.
 */
export function statusStartupSeconds(databaseUrl: string, runs = 5): number {
  return medianStart([BIN, "status"], { ...baseEnv(), DATABASE_URL: databaseUrl }, runs);
}

/**
 * Start time of `regwatch --help` from the compiled build: the median wall time of 5 runs of the
 * bin as a user runs it, built from the current sources first (bench/product-bin.ts).
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { PRODUCT_BIN as BIN, buildProduct } from "./product-bin.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export function startupSeconds(runs = 5): { startup_s: number; startup_runs: number } {
  buildProduct();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, [BIN, "--help"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ["ignore", "pipe", "pipe"],
    });
    times.push(performance.now() - started);
    if (result.status !== 0) throw new Error(`regwatch --help exited ${result.status}: ${result.stderr}`);
  }
  times.sort((a, b) => a - b);
  return { startup_s: Math.round(times[Math.floor(times.length / 2)]!) / 1000, startup_runs: runs };
}

/**
 * Start-and-answer time of `regwatch status` from the compiled build against a migrated database
 * (the median of `runs`): what an operator waits for the cheapest command that reads the database.
 */
export function statusStartupSeconds(databaseUrl: string, runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, [BIN, "status"], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl },
      stdio: ["ignore", "pipe", "pipe"],
    });
    times.push(performance.now() - started);
    if (result.status !== 0) throw new Error(`regwatch status exited ${result.status}: ${result.stderr}`);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)]!) / 1000;
}

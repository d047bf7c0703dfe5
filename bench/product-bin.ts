/**
 * The published `regwatch` command (bin/regwatch.js, which runs dist/ only) for the benches that
 * measure what a user runs: built from the current sources first, so a number never describes an
 * older build, and the Node flags that command starts with, for scenarios run in a process of
 * their own.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const PRODUCT_BIN = fileURLToPath(new URL("../bin/regwatch.js", import.meta.url));

let built = false;

/** `npm run build` once per bench process. */
export function buildProduct(): void {
  if (built) return;
  const build = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) throw new Error("npm run build failed; nothing measured");
  built = true;
}

/** The Node flags bin/regwatch.js starts Node with: its `exec node FLAGS "$0"` line. */
export function binNodeFlags(): string[] {
  const exec = readFileSync(PRODUCT_BIN, "utf8")
    .split("\n", 3)
    .find((line) => line.includes("exec node "));
  if (!exec) throw new Error(`${PRODUCT_BIN} has no \`exec node\` line`);
  const words = exec.slice(exec.indexOf("exec node ") + "exec node ".length).split(/\s+/);
  return words.filter((w) => w.startsWith("--"));
}

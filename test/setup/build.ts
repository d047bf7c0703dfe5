/**
 * Builds dist/ once before the product tests (`npm run build`'s script), for the tests that run
 * the published bin/regwatch.js: a test file that built it itself removed dist/ for the few
 * seconds of its build, under another file's run of the bin.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const build = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: root, encoding: "utf8" });
  if (build.status !== 0)
    throw new Error(`npm run build failed before the tests:\n${build.stdout}${build.stderr}`);
}

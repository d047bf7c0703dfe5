/**
 * Builds dist/ once before the tests (`npm run build`'s script): every process a test starts runs
 * the published bin/regwatch.js over it, as users do. Both projects list this setup; the first to
 * run builds and the second finds the build of this run (a test file that built it itself would
 * remove dist/ for the few seconds of its build, under another file's run of the bin).
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const BUILT_IN_THIS_RUN = "REGWATCH_TEST_BUILT";

export default function setup(): void {
  if (process.env[BUILT_IN_THIS_RUN] === String(process.pid)) return;
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const build = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: root, encoding: "utf8" });
  if (build.status !== 0)
    throw new Error(`npm run build failed before the tests:\n${build.stdout}${build.stderr}`);
  process.env[BUILT_IN_THIS_RUN] = String(process.pid);
}

/**
 * How a person runs regwatch where this console runs, for the sign-in page's first-admin hint:
 * `npx regwatch` in a checkout, `regwatch` where the package is installed. A checkout is told by
 * its `.git` (a folder, or a file in a git worktree) beside the package.json of the code running:
 * in a checkout `regwatch` is not on the PATH and npm runs the checkout's own bin through npx,
 * while npm never installs a `.git` into a package (global install, a project's node_modules)
 * and the Docker image copies none (it puts `regwatch` on the PATH).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

let found: string | undefined;

/** `npx regwatch` or `regwatch`, decided once per process from where this file runs (dist/ or src/). */
export function commandAsRun(): string {
  found ??= commandFrom(path.dirname(fileURLToPath(import.meta.url)));
  return found;
}

/** The command for code running in `dir`: the nearest folder above with a package.json is the package. */
export function commandFrom(dir: string): string {
  for (let at = dir; ; at = path.dirname(at)) {
    if (existsSync(path.join(at, "package.json"))) {
      return existsSync(path.join(at, ".git")) ? "npx regwatch" : "regwatch";
    }
    if (path.dirname(at) === at) return "regwatch";
  }
}

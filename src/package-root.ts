/**
 * The folder regwatch is installed in (the one holding its package.json and migrations/), found
 * from wherever the running module sits: src/ and dist/ directly, or a shared chunk of the
 * bundled build, each at its own depth below the root.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

let found: string | undefined;

export function packageRoot(): string {
  found ??= findRoot(path.dirname(fileURLToPath(import.meta.url)));
  return found;
}

function findRoot(from: string): string {
  // Neither src/ nor dist/ holds a package.json: the first one above is regwatch's own.
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`regwatch: no package.json above ${from}`);
  }
}

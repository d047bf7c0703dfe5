/** The version of package.json, at the package's root (src/package-root.ts). */
import { readFileSync } from "node:fs";
import path from "node:path";
import { packageRoot } from "./package-root.ts";

let cached: string | undefined;

export function packageVersion(): string {
  cached ??= (
    JSON.parse(readFileSync(path.join(packageRoot(), "package.json"), "utf8")) as { version: string }
  ).version;
  return cached;
}

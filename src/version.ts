/** The version of package.json, found from both src/ and dist/ (each one level below the root). */
import { readFileSync } from "node:fs";

let cached: string | undefined;

export function packageVersion(): string {
  cached ??= (
    JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
  ).version;
  return cached;
}

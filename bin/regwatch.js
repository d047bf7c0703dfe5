#!/usr/bin/env -S node --max-semi-space-size=2
// Entry point of the `regwatch` command: the compiled build in dist/ (`npm run build`, run on
// install by `prepare`) when it is at least as new as every source file, else the TypeScript
// sources through tsx, so an edit in src/ is never hidden by an older build.
// Run as `regwatch` (npx, an npm bin link, the file itself), Node starts with young-generation
// halves of 2 MB instead of 16: a long sync or backfill then peaks at about 120 MB of memory
// instead of about 135, for a few more (short) minor collections. `node bin/regwatch.js` runs
// with Node's own defaults.
import { existsSync, readdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";

const compiled = new URL("../dist/cli.js", import.meta.url);
const sources = fileURLToPath(new URL("../src", import.meta.url));

function compiledIsCurrent() {
  if (!existsSync(compiled)) return false;
  if (!existsSync(sources)) return true; // an install without sources
  const built = statSync(compiled).mtimeMs;
  for (const entry of readdirSync(sources, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && statSync(`${entry.parentPath ?? entry.path}/${entry.name}`).mtimeMs > built)
      return false;
  }
  return true;
}

if (process.env.REGWATCH_FROM_SOURCE !== "1" && compiledIsCurrent()) {
  await import(compiled.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli.ts");
}

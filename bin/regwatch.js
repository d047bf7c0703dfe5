#!/bin/sh
//bin/sh -c :; exec node --max-semi-space-size=2 "$0" "$@"
// The `regwatch` command: runs the build in dist/ (`npm run build`; `prepare` builds it on
// `npm install` in a checkout; a packed or published copy ships it), never the sources.
//
// The two lines above are for the shell (`/bin/sh`: dash, bash, BusyBox's on Alpine): line 2
// runs a no-op (`//bin/sh` is /bin/sh, which exists wherever line 1 works) and replaces the shell
// with Node, given young-generation halves of 2 MB instead of 16 (a long sync or backfill then
// peaks at about 120 MB instead of about 133, for a few more, short, minor collections). To
// JavaScript both are comments. Why not another way: `#!/usr/bin/env -S node FLAG` fails where
// env has no -S (BusyBox, so Alpine); V8 sizes the young generation when Node starts, so setting
// the flag from here (v8.setFlagsFromString) changes nothing (measured); and a second Node
// process started with the flag would itself hold about 44 MB, more than the flag saves.
// `node bin/regwatch.js` (`npm run demo`, the Docker image, which sets the flag in NODE_OPTIONS)
// reads this file as JavaScript only. bin/regwatch-src.js starts the same way; a test keeps the
// two lines equal.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const compiled = new URL("../dist/cli.js", import.meta.url);
if (!existsSync(compiled)) {
  process.stderr.write(
    `regwatch: there is no build to run (${path.join(root, "dist", "cli.js")} is missing): run \`npm run build\` in ${root} (it needs the dev dependencies: \`npm ci\` or \`npm install\` first)\n`,
  );
  process.exit(1);
}
const stale = newerSource();
if (stale) {
  // A checkout edited or pulled since its last build: say so rather than run old code in silence.
  process.stderr.write(
    `regwatch: ${stale} changed after dist/ was built; \`npm run build\` brings the build up to date\n`,
  );
}
await import(compiled.href);

/** A file of src/ changed after dist/cli.js was built, if this copy has its sources at all. */
function newerSource() {
  const sources = path.join(root, "src");
  if (!existsSync(sources)) return undefined; // a packed or published copy, or the Docker image
  const built = statSync(compiled).mtimeMs;
  for (const entry of readdirSync(sources, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    if (statSync(file).mtimeMs > built) return path.relative(root, file);
  }
  return undefined;
}

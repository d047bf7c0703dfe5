// `npm run build` (and `prepare` on install): compiles src/ to dist/ with tsc. Without TypeScript
// (an install that left out the dev dependencies) it says so and succeeds: bin/regwatch.js then
// runs the sources through tsx, only slower to start.
import { spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
let tsc;
try {
  const manifest = createRequire(import.meta.url).resolve("typescript/package.json");
  tsc = path.join(path.dirname(manifest), "bin", "tsc");
} catch {
  console.warn("regwatch build: typescript is not installed; regwatch will run its sources through tsx");
  process.exit(0);
}
if (!existsSync(`${root}/src`)) process.exit(0);
rmSync(`${root}/dist`, { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
  cwd: root,
  stdio: "inherit",
});
if (result.status !== 0) {
  rmSync(`${root}/dist`, { recursive: true, force: true }); // never leave a half build to be run
  process.exit(result.status ?? 1);
}

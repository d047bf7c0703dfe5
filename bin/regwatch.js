#!/bin/sh
//bin/sh -c :; case "$1 $2 $*" in "payments check "*--xlsx*) ;; "payments check "*) MALLOC_ARENA_MAX=2 exec node --max-semi-space-size=4 "$0" "$@";; esac; exec node --max-semi-space-size=2 "$0" "$@"
// The `regwatch` command: runs the build in dist/ (`npm run build`; `prepare` builds it on
// `npm install` in a checkout; a packed or published copy ships it), never the sources.
//
// The two lines above are for the shell (`/bin/sh`: dash, bash, BusyBox's on Alpine): line 2
// runs a no-op (`//bin/sh` is /bin/sh, which exists wherever line 1 works) and replaces the shell
// with Node, given young-generation halves of 2 MB instead of 16 (a long sync or backfill then
// peaks at about 120 MB instead of about 133, for a few more, short, minor collections), and 4 MB
// for `payments check`, whose rows live through several 2 MB collections (fewer scavenges and
// less collecting than 2 MB; 8 MB was a little faster again but peaked at 123 to 137 MB on 200,000
// rows, 4 MB at 114 to 123), with glibc's malloc held to two arenas (MALLOC_ARENA_MAX: Node's
// compiler and I/O threads otherwise each take one; about 4 MB lower peaks, measured; other C
// libraries ignore it), not with --xlsx (the workbook's check gained nothing and peaked 15 MB
// higher). To JavaScript both are comments. Why not another way: `#!/usr/bin/env -S node FLAG` fails where
// env has no -S (BusyBox, so Alpine); V8 sizes the young generation when Node starts, so setting
// the flag from here (v8.setFlagsFromString) changes nothing (measured); and a second Node
// process started with the flag would itself hold about 44 MB, more than the flag saves.
// `node bin/regwatch.js` (`npm run demo`, the Docker image, which sets the flag in NODE_OPTIONS)
// reads this file as JavaScript only. bin/regwatch-src.js starts the same way; a test keeps the
// two lines equal.
// This file is CommonJS (bin/package.json says so for bin/): Node starts a CommonJS entry
// without its ES module loader, about 10 ms of every command's start (measured on Node 20); the
// build it runs is loaded with import(). Built-in modules come through process.getBuiltinModule.
const { existsSync, fstatSync, readdirSync, readFileSync, statSync, writeSync } =
  process.getBuiltinModule("node:fs");
const path = process.getBuiltinModule("node:path");
const { pathToFileURL } = process.getBuiltinModule("node:url");

const root = path.join(__dirname, "..");
const compiled = path.join(root, "dist", "cli.js");
if (!existsSync(compiled)) {
  process.stderr.write(
    `regwatch: there is no build to run (${compiled} is missing): run \`npm run build\` in ${root} (it needs the dev dependencies: \`npm ci\` or \`npm install\` first)\n`,
  );
  process.exit(1);
}
// `regwatch status`, and the overview, help and version of the command line, run from a file of
// their own (scripts/one-file-builds.mjs); every other command line, and a build made before those
// files existed, from dist/cli.js. A failure of either is an unhandled rejection: Node prints it
// and exits with status 1.
const args = process.argv.slice(2);
const oneFile = oneFileOf(args);
if (args[0] === "status" && oneFile && existsSync(oneFile)) {
  // The walk of src/ (about 4 ms of CPU in a checkout) runs at the command's first wait, its
  // connection to the database, rather than before the command starts: the two overlap. Its
  // warning still comes first, as the report is printed only once the database has answered.
  setImmediate(warnIfStale);
  runOneFile(oneFile);
} else {
  warnIfStale();
  if (!answerOverview(args)) {
    if (oneFile && existsSync(oneFile)) runOneFile(oneFile);
    else import(pathToFileURL(compiled).href);
  }
}

/** A checkout edited or pulled since its last build: said rather than old code run in silence. */
function warnIfStale() {
  const stale = newerSource();
  if (stale) {
    process.stderr.write(
      `regwatch: ${stale} changed after dist/ was built; \`npm run build\` brings the build up to date\n`,
    );
  }
}

/**
 * The overview, `--help`, `-h` and `help` answered from the text the build rendered by running
 * dist/cli-overview.cjs with each of them (dist/cli-overview.json), and `--version`, `-V` from
 * package.json, as commander prints them: neither needs commander nor the overview's file. Only
 * when the text goes to a file, a pipe or a socket: on a terminal commander fits the text to its
 * width, so the overview's file answers. False when this does not answer `args`.
 */
function answerOverview(args) {
  if (args.length > 1) return false;
  const key = args[0] ?? "";
  if (key === "--version" || key === "-V")
    return writeAll(1, `${readJson(path.join(root, "package.json")).version}\n`);
  if (!["", "--help", "-h", "help"].includes(key)) return false;
  let answer;
  try {
    answer = readJson(path.join(root, "dist", "cli-overview.json"))[key];
  } catch {
    return false; // a build made before the rendered text existed
  }
  const fd = answer.stream === "stderr" ? 2 : 1;
  // A terminal is a character device (node:tty would tell it apart from /dev/null, but loading it
  // loads net and the stream classes): any character device gets commander's own answer.
  if (!isFileOrPipe(fd)) return false;
  process.exitCode = answer.status;
  return writeAll(fd, answer.text);
}

function isFileOrPipe(fd) {
  try {
    const stat = fstatSync(fd);
    return stat.isFile() || stat.isFIFO() || stat.isSocket();
  } catch {
    return false; // closed
  }
}

function readJson(file) {
  return JSON.parse(readFileSync(file, "utf8"));
}

/** `text` written to the file descriptor; what a non-blocking pipe refuses goes through its stream. */
function writeAll(fd, text) {
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(fd, bytes, written);
  } catch (error) {
    if (error.code !== "EAGAIN") throw error;
    (fd === 2 ? process.stderr : process.stdout).write(bytes.subarray(written));
  }
  return true;
}

/** The file of its own that runs `args`, if one does. */
function oneFileOf(args) {
  if (args[0] === "status") return path.join(root, "dist", "cli-status.cjs");
  const overview =
    args.length === 0 || (args.length === 1 && ["--help", "-h", "--version", "-V", "help"].includes(args[0]));
  return overview ? path.join(root, "dist", "cli-overview.cjs") : undefined;
}

/**
 * A file of its own, CommonJS, compiled as Node compiles one (its module wrapper) but with the V8
 * code cache the build made of it: the functions its start runs come compiled. V8 checks that
 * the cache fits this Node, its flags and the file, and compiles without it otherwise
 * (`cachedDataRejected`), as it does when there is no cache. The file's import() of a package
 * (code compiled this way has none) is this module's.
 */
async function runOneFile(file) {
  const { Script } = process.getBuiltinModule("node:vm");
  const { createRequire, wrap } = process.getBuiltinModule("node:module");
  const source = readFileSync(file, "utf8");
  const script = new Script(wrap(source), { filename: file, cachedData: cacheOf(file, source) });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
  await module.exports.main(process.argv, (specifier) => import(specifier));
}

/**
 * The code cache beside `file` for this process's Node flags, when it was made of this file: it
 * starts with the file's first line, which names the build. Undefined without one (other flags,
 * a build that could not write it), or for another build's: the file is then compiled as any file.
 */
function cacheOf(file, source) {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)].filter(Boolean);
  let cache;
  try {
    cache = readFileSync(`${file}.${cacheKey(flags)}.cache`);
  } catch {
    return undefined;
  }
  const stamp = source.slice(0, source.indexOf("\n") + 1);
  return cache.toString("latin1", 0, stamp.length) === stamp ? cache.subarray(stamp.length) : undefined;
}

/**
 * The part of a code cache's name that says which Node flags it was made under: V8 takes a cache
 * only under the flags it was made with. The build makes one for no flags (`node
 * bin/regwatch.js`) and one for line 2's (the shell's start, and the image's NODE_OPTIONS), with
 * this function, which it reads from this file.
 */
function cacheKey(flags) {
  return (
    flags
      .map((flag) => flag.replace(/^-+/, ""))
      .join("+")
      .replace(/[^\w=.+-]/g, "_") || "plain"
  );
}

/** A file of src/ changed after dist/cli.js was built, if this copy has its sources at all. */
function newerSource() {
  const sources = path.join(root, "src");
  if (!existsSync(sources)) return undefined; // a packed or published copy, or the Docker image
  const file = newerThan(sources, statSync(compiled).mtimeMs);
  return file && path.relative(root, file);
}

/**
 * The first file under `dir` modified after `time`. A walk of its own (one listing per folder,
 * one stat per file, names joined by hand) took less than half the time of `readdirSync`'s
 * `recursive` option with `path.join` per entry (measured: 10 against 23 ms on a busy machine, 450
 * files), and it runs before every command.
 */
function newerThan(dir, time) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = dir + path.sep + entry.name;
    const found = entry.isDirectory()
      ? newerThan(file, time)
      : entry.isFile() && statSync(file).mtimeMs > time && file;
    if (found) return found;
  }
  return undefined;
}

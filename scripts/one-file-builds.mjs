// The command lines that bin/regwatch.js runs from a file of their own rather than from dist/cli.js
// (issue 38): `regwatch status` (dist/cli-status.cjs), which an operator or a monitor runs often,
// and the overview, `--help` and `--version` (dist/cli-overview.cjs). Each is one CommonJS file,
// nothing shared with the main build (its code, the code it imports when it runs, and its
// libraries, one copy of each), with a V8 code cache beside it: Node reads one file instead of
// resolving, reading and linking a dozen or more chunks, and bin/regwatch.js compiles it with the
// cache, so the functions its start runs are not compiled again.
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CONVERSATION, replayServer, shippedMigrations } from "./status-warmup.mjs";

const SOURCES = fileURLToPath(new URL("../src/", import.meta.url));

/**
 * src/cron.ts in the status file: node-cron bundled in (its CommonJS build, whose child_process
 * the build's built-in plugin defers) rather than required from node_modules at run time, where
 * loading it loads child_process, 20 ms of the command's start.
 */
const nodeCronInside = {
  name: "node-cron-inside",
  setup(build) {
    // Its matcher from the file of the package that defines it (src/cron.ts), the same copy as
    // the package's entry requires.
    const shared = createRequire(import.meta.url)
      .resolve("node-cron")
      .replace(/[^\\/]+$/, "_shared.cjs");
    // node-cron's two Intl formatters give way to src/cron-clock.ts's, which build none where the
    // zone table vouches for the zone (see zoneTableInside).
    build.onLoad({ filter: /[\\/]node-cron[\\/]dist[\\/]_shared\.cjs$/ }, async (args) => {
      let source = await readFile(args.path, "utf8");
      for (const [kind, made] of [
        ["parts", /new Intl\.DateTimeFormat\('en-US', dftOptions\)/],
        [
          "offset",
          /new Intl\.DateTimeFormat\('en-US', \{\s*timeZone: timezone,\s*timeZoneName: 'shortOffset'\s*\}\)/,
        ],
      ]) {
        if (!made.test(source))
          throw new Error(`${args.path} no longer makes its ${kind} formatter as ${made}`);
        source = source.replace(made, (text) => `regwatchCronFormatter("${kind}", timezone, () => ${text})`);
      }
      const clock = JSON.stringify(path.join(SOURCES, "cron-clock.ts"));
      return {
        contents: `const { cronFormatter: regwatchCronFormatter } = require(${clock});\n${source}`,
        loader: "js",
      };
    });
    build.onLoad({ filter: /[\\/]src[\\/]cron\.ts$/ }, () => ({
      contents: `export function nodeCron() { return require("node-cron").default; }
export function cronMatcher(expression, timeZone) {
  nodeCron().parse(expression);
  return new (require(${JSON.stringify(shared)}).TimeMatcher)(expression, timeZone);
}`,
      loader: "js",
    }));
  },
};

/**
 * zod in the status file: bundled, but loaded at the first schema the configuration builds rather
 * than when the file starts (its setup is about a third of a status's start). The variables a
 * plain status reads are checked by hand (src/config-schema.ts `checked`), so a status whose
 * environment sets no others never loads it. The source's import of zod is replaced by an object
 * that requires it when first read; its types are erased by the build.
 */
const zodWhenUsed = {
  name: "zod-when-used",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]config-schema\.ts$/ }, async (args) => {
      const source = await readFile(args.path, "utf8");
      const zodImport = 'import * as z from "zod";';
      if (!source.includes(zodImport)) throw new Error(`${args.path} no longer has the line ${zodImport}`);
      const lazy = 'let zod; const z = new Proxy({}, { get: (_, key) => (zod ??= require("zod"))[key] });';
      return { contents: source.replace(zodImport, lazy), loader: "ts" };
    });
    // What the configuration's schemas use of zod, from the same copy as the accounts file's
    // import (its schemas take config-schema.ts's): a namespace of all of zod would bundle every
    // part of it, its translations included.
    build.onResolve({ filter: /^zod$/ }, (args) =>
      args.kind === "require-call" && /[\\/]src[\\/]config-schema\.ts$/.test(args.importer)
        ? { path: "zod", namespace: "zod-used", pluginData: args.resolveDir }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-used" }, (args) => ({
      contents: 'export { array, enum, NEVER, number, string, url } from "zod";',
      loader: "js",
      resolveDir: args.pluginData,
    }));
  },
};

/**
 * src/zone-table.ts in the status file: src/zone-clock.ts's table of every zone this Node's Intl
 * knows, and UTC, from the year before the build to four years after it, made by the Node that builds
 * (which is the one that runs it, unless a copy is packed and run elsewhere: the table then
 * names other data than that Node's, and is not used). About 20 kB of the file.
 */
async function zoneTableInside() {
  const { makeZoneTable } = await import("../src/zone-clock.ts");
  const year = new Date().getUTCFullYear();
  const zones = [...new Set([...Intl.supportedValuesOf("timeZone"), "UTC"])];
  const table = makeZoneTable(zones, Date.UTC(year - 1, 0, 1), Date.UTC(year + 4, 0, 1));
  // As JSON text: a string costs the code cache its length, an object literal twice that.
  const json = table ? JSON.stringify(JSON.stringify(table)) : undefined;
  const contents = `export const ZONE_TABLE = ${json ? `JSON.parse(${json})` : "undefined"};`;
  return {
    name: "zone-table-inside",
    setup(build) {
      build.onLoad({ filter: /[\\/]src[\\/]zone-table\.ts$/ }, () => ({ contents, loader: "js" }));
    },
  };
}

/**
 * The commands' modules stay out of the overview's file: it lists their summaries and loads none
 * (bin/regwatch.js runs dist/cli.js for a command line that names a command). Should one be asked
 * for all the same, its import() fails, as code compiled the way the file is has none.
 */
const commandsOutside = {
  name: "commands-outside",
  setup(build) {
    build.onResolve({ filter: /^\.\// }, (args) =>
      args.kind === "dynamic-import" && /[\\/]src[\\/]commands[\\/]table\.ts$/.test(args.importer)
        ? { path: args.path, external: true }
        : undefined,
    );
  },
};

/** Both files, each with its code cache. */
export async function buildOneFiles(esbuild, { root, outDir, common, plugins }) {
  for (const [name, own, warmArgs] of [
    ["cli-status", [nodeCronInside, zodWhenUsed, await zoneTableInside()], ["status"]],
    ["cli-overview", [commandsOutside], ["--help"]],
  ]) {
    const file = `${outDir}/${name}.cjs`;
    // The file's first line names its build, and its cache starts with the same line:
    // bin/regwatch.js takes a cache only beside the file it was made of (V8's own check of the
    // source is its length alone).
    const stamp = `// regwatch build ${randomUUID()}`;
    await esbuild.build({
      ...common,
      format: "cjs",
      entryPoints: [`${root}/src/${name}.ts`],
      outfile: file,
      banner: {
        js: `${stamp}\nconst regwatchModuleUrl = require("node:url").pathToFileURL(__filename).href;`,
      },
      define: { "import.meta.url": "regwatchModuleUrl" },
      // Its own first: the libraries' plugin (scripts/build.mjs) would load node-cron's file
      // before nodeCronInside could.
      plugins: [...own, ...plugins],
    });
    await makeCodeCaches(root, file, warmArgs);
  }
  renderOverview(`${outDir}/cli-overview.cjs`, `${outDir}/cli-overview.json`);
}

/**
 * What the overview's file prints for `regwatch` alone, `--help`, `-h` and `help`, to a pipe (so
 * at commander's width for other than a terminal), kept in `jsonFile` with the stream it went to
 * and the exit status: bin/regwatch.js prints it from there, without commander, when the text
 * does not go to a terminal.
 */
function renderOverview(file, jsonFile) {
  const answers = {};
  for (const key of ["", "--help", "-h", "help"]) {
    const runner = `require(process.argv[1]).main(["node", "regwatch", ...process.argv.slice(2)], (s) => import(s))`;
    const run = spawnSync(process.execPath, ["-e", runner, file, ...(key ? [key] : [])], {
      env: { PATH: process.env.PATH ?? "" },
      encoding: "utf8",
    });
    if (run.error || run.status === null || (run.stdout === "") === (run.stderr === ""))
      throw new Error(`rendering \`regwatch ${key}\` failed: ${run.error?.message ?? run.stderr}`);
    answers[key] = run.stdout
      ? { stream: "stdout", text: run.stdout, status: run.status }
      : { stream: "stderr", text: run.stderr, status: run.status };
  }
  writeFileSync(jsonFile, `${JSON.stringify(answers, null, 2)}\n`);
}

/**
 * `file`'s code caches, one for each way bin/regwatch.js is started (V8 refuses a cache made under
 * other flags): `node bin/regwatch.js`, with no flags, and through its shell line, with the flags
 * of its last `exec node` (these command lines'). Each is made by a Node so started, which
 * compiles the file as bin/regwatch.js does (Node's CommonJS wrapper), runs its top level (what the
 * command runs first: the libraries' and modules' setup) and writes the cache of what it compiled,
 * after the file's first line. A cache V8 refuses at run time (another Node) costs nothing but the
 * time it saves: the file is then compiled without it.
 */
async function makeCodeCaches(root, file, warmArgs) {
  const bin = readFileSync(`${root}/bin/regwatch.js`, "utf8");
  const shellFlags =
    /exec node ((?:--\S+ )*)"\$0" "\$@"$/.exec(bin.split("\n")[1])?.[1].trim().split(/\s+/) ?? [];
  const keySource = /^function cacheKey\([\s\S]*?^}/m.exec(bin)?.[0];
  if (!keySource) throw new Error("bin/regwatch.js has no function cacheKey");
  const cacheKey = new Function(`${keySource}\nreturn cacheKey;`)();
  // `status` talks to a stand-in that replays a real server's answers (scripts/status-warmup.mjs),
  // where the migrations are at hand (the image's build stage has none: its status stops at
  // reading their journal, as it stopped at connecting before).
  const migrations = warmArgs[0] === "status" ? journalLength(root) : undefined;
  const replay =
    migrations === undefined
      ? undefined
      : await replayServer(JSON.parse(readFileSync(CONVERSATION, "utf8")), migrations);
  try {
    for (const flags of [[], shellFlags.filter(Boolean)])
      await makeCodeCache(file, flags, `${file}.${cacheKey(flags)}.cache`, warmArgs, replay?.url);
  } finally {
    await replay?.close();
  }
}

/** The migrations this build ships, or undefined without them. */
function journalLength(root) {
  try {
    return shippedMigrations(root);
  } catch {
    return undefined;
  }
}

/**
 * `file`'s code cache made by a Node started with `flags`, written to `cacheFile`, after the file's
 * top level and then its command line `warmArgs` have run: the functions a command calls after
 * the start (parsing the command line, reading the configuration, the driver's connecting and
 * its first statement; commander's help) come compiled too, not only the modules' setup
 * (measured on `regwatch status`: about 7 ms of CPU less). `status` runs against `databaseUrl`,
 * the replayed server (its answers read, its report printed: about 7 % fewer instructions again),
 * else a port where nothing listens (so it stops at connecting; the cache is written after 15 s
 * whatever the run is doing), from an empty folder (no .env) with only PATH set; what it prints is
 * not kept. Started without waiting on it, so that the replay answers from this process.
 */
async function makeCodeCache(file, flags, cacheFile, warmArgs, databaseUrl) {
  const maker = `
    const { readFileSync, writeFileSync, renameSync } = require("node:fs");
    const { Script } = require("node:vm");
    const { createRequire, wrap } = require("node:module");
    const path = require("node:path");
    const [file, cacheFile, ...warmArgs] = process.argv.slice(1);
    const source = readFileSync(file, "utf8");
    const script = new Script(wrap(source), { filename: file });
    const module = { exports: {} };
    script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
    const write = () => {
      const stamp = Buffer.from(source.slice(0, source.indexOf("\\n") + 1), "latin1");
      writeFileSync(cacheFile + ".tmp", Buffer.concat([stamp, script.createCachedData()]));
      renameSync(cacheFile + ".tmp", cacheFile);
      process.exit(0);
    };
    module.exports.main(["node", "regwatch", ...warmArgs], (specifier) => import(specifier)).finally(write);
    // A run that does not end (a connection neither refused nor answered) stops being waited for.
    setTimeout(write, 15_000);`;
  const empty = mkdtempSync(path.join(tmpdir(), "regwatch-code-cache-"));
  try {
    const child = spawn(process.execPath, [...flags, "-e", maker, file, cacheFile, ...warmArgs], {
      cwd: empty,
      env: {
        PATH: process.env.PATH ?? "",
        DATABASE_URL: databaseUrl ?? "postgres://regwatch@127.0.0.1:1/none",
      },
      stdio: ["ignore", "ignore", "pipe"],
      timeout: 120_000,
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    const [status, error] = await new Promise((resolve) => {
      child.once("error", (e) => resolve([null, e]));
      child.once("close", (code) => resolve([code, undefined]));
    });
    if (status !== 0) throw new Error(`the code cache of ${file} was not made: ${error?.message ?? stderr}`);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

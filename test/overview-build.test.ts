/**
 * `regwatch` without a command, with only --help, -h, --version, -V or `help`, runs from a file
 * of its own (dist/cli-overview.cjs, compiled by bin/regwatch.js with the code caches the build made
 * beside it): it holds no command's module, Node takes its caches when started as the bin is
 * started, and each of those command lines prints what the sources print; a command line that
 * names a command still runs the main build.
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runProcess, SOURCE_BIN } from "./helpers/cli.ts";
import { runBuiltRecordingLoads } from "./helpers/module-loads.ts";
import { binNodeFlags, cacheFileFor, cacheTaken } from "./helpers/one-file.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BUILT = path.join(ROOT, "bin", "regwatch.js");
// The build must print what the sources print: the one reason these tests start the sources.
const SOURCES = SOURCE_BIN;
const OVERVIEW = path.join(ROOT, "dist", "cli-overview.cjs");

/** What a command line answered: its exit status and both streams. */
function answerOf(args: string[], run: { code: number | null; stdout: string; stderr: string }) {
  return { args, code: run.code, stdout: run.stdout, stderr: run.stderr };
}

describe("the overview from the build", () => {
  it("is one CommonJS file that holds no command's module", () => {
    const text = readFileSync(OVERVIEW, "utf8");
    expect(text).toMatch(/^\/\/ src\/commands\/table\.ts$/m);
    expect(text).toMatch(/^\/\/ node_modules\/commander\//m);
    expect(text).not.toMatch(/^\/\/ src\/commands\/(sync|status|migrate|payments)\.ts$/m);
    expect(text).toContain('import("./sync.ts")');
  });

  it("has code caches that Node takes when started as `node bin/regwatch.js` and as the bin's shell line starts it", async () => {
    const shell = await binNodeFlags(["--help"]);
    for (const flags of [[], shell])
      expect(cacheTaken(flags, OVERVIEW, cacheFileFor(OVERVIEW, flags))).toBe(true);
  });

  it("prints what the sources print", async () => {
    for (const args of [[], ["--help"], ["-h"], ["--version"], ["-V"], ["help"]]) {
      const [built, sources] = await Promise.all([
        runProcess(process.execPath, [BUILT, ...args], {}, 30_000),
        runProcess(process.execPath, [SOURCES, ...args], {}, 30_000),
      ]);
      expect(answerOf(args, built)).toEqual(answerOf(args, sources));
    }
  });

  it("answers the overview and --help from the text the build rendered, and --version from package.json, without commander", async () => {
    // The bin beside the rendered text, an overview file that only says it ran and a package.json
    // of another version: to a pipe, each of these command lines is answered without that file.
    const dir = mkdtempSync(path.join(tmpdir(), "regwatch-rendered-"));
    try {
      mkdirSync(path.join(dir, "bin"));
      mkdirSync(path.join(dir, "dist"));
      for (const file of ["bin/regwatch.js", "bin/package.json", "dist/cli-overview.json"])
        copyFileSync(path.join(ROOT, file), path.join(dir, file));
      const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
      writeFileSync(path.join(dir, "package.json"), JSON.stringify({ ...pkg, version: "9.8.7" }));
      const ran = 'exports.main = async () => console.log("the overview file ran");\n';
      writeFileSync(path.join(dir, "dist", "cli-overview.cjs"), ran);
      writeFileSync(path.join(dir, "dist", "cli.js"), 'console.log("the main build ran");\n');
      const bin = path.join(dir, "bin", "regwatch.js");
      for (const args of [[], ["--help"], ["-h"], ["help"]]) {
        const [rendered, sources] = await Promise.all([
          runBuiltRecordingLoads(args, {}, 30_000, bin),
          runProcess(process.execPath, [SOURCES, ...args], {}, 30_000),
        ]);
        expect(answerOf(args, rendered)).toEqual(answerOf(args, sources));
        expect(rendered.loaded).not.toContain("NativeModule vm");
      }
      for (const flag of ["--version", "-V"]) {
        const version = await runProcess(process.execPath, [bin, flag], {}, 30_000);
        expect({ flag, code: version.code, stdout: version.stdout }).toEqual({
          flag,
          code: 0,
          stdout: "9.8.7\n",
        });
      }
      // A build without the rendered text: the overview's file answers.
      rmSync(path.join(dir, "dist", "cli-overview.json"));
      const unrendered = await runProcess(process.execPath, [bin, "--help"], {}, 30_000);
      expect(unrendered.stdout).toBe("the overview file ran\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("runs --help from its file, and a command line naming a command from the main build", async () => {
    // The bin and the overview's file beside a stand-in main build that only says it ran: --help
    // must print the usage without it, and `sync --help` must reach it.
    const dir = mkdtempSync(path.join(tmpdir(), "regwatch-overview-"));
    try {
      mkdirSync(path.join(dir, "bin"));
      mkdirSync(path.join(dir, "dist"));
      for (const file of ["package.json", "bin/regwatch.js", "bin/package.json", "dist/cli-overview.cjs"])
        copyFileSync(path.join(ROOT, file), path.join(dir, file));
      symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
      writeFileSync(path.join(dir, "dist", "cli.js"), 'console.log("the main build ran");\n');
      const bin = path.join(dir, "bin", "regwatch.js");
      const help = await runBuiltRecordingLoads(["--help"], {}, 30_000, bin);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toContain("Usage: regwatch");
      expect(help.stdout).not.toContain("the main build ran");
      expect(help.loaded).not.toContain("NativeModule child_process");
      const syncHelp = await runProcess(process.execPath, [bin, "sync", "--help"], {}, 30_000);
      expect(syncHelp.stdout).toBe("the main build ran\n");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // And the real main build answers it.
    const syncHelp = await runProcess(process.execPath, [BUILT, "sync", "--help"], {}, 30_000);
    expect(syncHelp.code, syncHelp.stderr).toBe(0);
    expect(syncHelp.stdout).toContain("Usage: regwatch sync");
  });
});

/**
 * `regwatch` without a command, with only --help, -h, --version, -V or `help`, runs from a file
 * of its own (dist/cli-overview.cjs, compiled by bin/regwatch.js with the code caches the build made
 * beside it): it holds no command's module, Node takes its caches when started as the bin is
 * started, and each of those command lines prints what the sources print; a command line that
 * names a command still runs the main build.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runProcess } from "./helpers/cli.ts";
import { runBuiltRecordingLoads } from "./helpers/module-loads.ts";
import { binNodeFlags, cacheFileFor, cacheTaken } from "./helpers/one-file.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BUILT = path.join(ROOT, "bin", "regwatch.js");
const SOURCES = path.join(ROOT, "bin", "regwatch-src.js");
const OVERVIEW = path.join(ROOT, "dist", "cli-overview.cjs");

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
      expect({ args, code: built.code, stdout: built.stdout, stderr: built.stderr }).toEqual({
        args,
        code: sources.code,
        stdout: sources.stdout,
        stderr: sources.stderr,
      });
    }
  });

  it("runs --help from its file, and a command line naming a command from the main build", async () => {
    const help = await runBuiltRecordingLoads(["--help"]);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toContain("Usage: regwatch");
    // The main build is ES modules: its loader is what a command's line loads and --help does not.
    expect(help.loaded).toContain("NativeModule vm");
    expect(help.loaded).not.toContain("NativeModule internal/modules/esm/module_job");
    expect(help.loaded).not.toContain("NativeModule child_process");
    const syncHelp = await runBuiltRecordingLoads(["sync", "--help"]);
    expect(syncHelp.code, syncHelp.stderr).toBe(0);
    expect(syncHelp.stdout).toContain("Usage: regwatch sync");
    expect(syncHelp.loaded).toContain("NativeModule internal/modules/esm/module_job");
  });
});

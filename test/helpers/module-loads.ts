/**
 * The published bin/regwatch.js run with a preload that writes, as the process exits, the
 * modules Node loaded (`process.moduleLoadList`: "NativeModule tls" and the like), for tests of
 * what a command line loads.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type CliResult, runProcess } from "./cli.ts";

const BUILT = fileURLToPath(new URL("../../bin/regwatch.js", import.meta.url));
const RECORD = `process.on("exit", () => require("node:fs").writeFileSync(process.env.REGWATCH_TEST_LOADS_TO, JSON.stringify(process.moduleLoadList)));\n`;

/**
 * `regwatch ARGS` from the build (or the copy of the bin at `bin`), with `env` (plus PATH and
 * HOME), and the modules it loaded.
 */
export async function runBuiltRecordingLoads(
  args: string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 60_000,
  bin = BUILT,
): Promise<CliResult & { loaded: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), "regwatch-loads-"));
  try {
    const preload = path.join(dir, "record.cjs");
    const out = path.join(dir, "loaded.json");
    writeFileSync(preload, RECORD);
    const run = await runProcess(
      process.execPath,
      ["--require", preload, bin, ...args],
      { ...env, REGWATCH_TEST_LOADS_TO: out },
      timeoutMs,
    );
    const loaded = run.code === 0 ? (JSON.parse(readFileSync(out, "utf8")) as string[]) : [];
    return { ...run, loaded };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

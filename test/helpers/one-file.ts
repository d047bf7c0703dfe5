/**
 * The files of their own that bin/regwatch.js runs some command lines from (scripts/one-file-builds.mjs):
 * the Node flags the bin starts such a command line with, and whether Node so started takes a
 * file's code cache.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { runProcess } from "./cli.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** The Node flags bin/regwatch.js starts `args` with: its shell line, run beside a build that prints them. */
export async function binNodeFlags(args: string[]): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "regwatch-flags-"));
  try {
    mkdirSync(path.join(dir, "bin"), { recursive: true });
    mkdirSync(path.join(dir, "dist"), { recursive: true });
    writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }\n');
    const bin = path.join(dir, "bin", "regwatch.js");
    copyFileSync(path.join(ROOT, "bin", "regwatch.js"), bin);
    copyFileSync(path.join(ROOT, "bin", "package.json"), path.join(dir, "bin", "package.json"));
    chmodSync(bin, 0o755);
    writeFileSync(path.join(dir, "dist", "cli.js"), "console.log(JSON.stringify(process.execArgv));\n");
    const run = await runProcess(bin, args, {}, 30_000);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as string[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The code cache bin/regwatch.js reads for `file` under Node `flags` (its own function cacheKey names it). */
export function cacheFileFor(file: string, flags: string[]): string {
  const bin = readFileSync(path.join(ROOT, "bin", "regwatch.js"), "utf8");
  const keySource = /^function cacheKey\([\s\S]*?^}/m.exec(bin)?.[0];
  expect(keySource).toBeDefined();
  const cacheKey = new Function(`${keySource}\nreturn cacheKey;`)() as (flags: string[]) => string;
  return `${file}.${cacheKey(flags)}.cache`;
}

/**
 * Whether Node, started with `flags`, takes `cache` for `file`, compiled as bin/regwatch.js
 * compiles it: the cache starts with the file's first line (its build's name), then V8's data.
 */
export function cacheTaken(flags: string[], file: string, cache: string): boolean {
  const probe = `
    const { readFileSync } = require("node:fs");
    const { Script } = require("node:vm");
    const { wrap } = require("node:module");
    const [file, cache] = process.argv.slice(1);
    const source = readFileSync(file, "utf8");
    const stamp = source.slice(0, source.indexOf("\\n") + 1);
    const data = readFileSync(cache);
    if (data.toString("latin1", 0, stamp.length) !== stamp) throw new Error("the cache is of another build");
    const script = new Script(wrap(source), { filename: file, cachedData: data.subarray(stamp.length) });
    console.log(script.cachedDataRejected ? "refused" : "taken");`;
  const run = spawnSync(process.execPath, [...flags, "-e", probe, file, cache], { encoding: "utf8" });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.trim() === "taken";
}

/**
 * `regwatch status` from the build runs from a file of its own (dist/cli-status.cjs, which
 * bin/regwatch.js compiles with the V8 code caches the build made beside it): that file requires
 * no other file of dist/, Node takes its caches when started as bin/regwatch.js is started for
 * `status`, a cache that is not its build's, not V8's or of other flags only costs time, the
 * command loads neither child_process nor tls (unless the database asks for TLS, which it then
 * speaks), and it prints what the sources print.
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
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONVERSATION, replayServer, shippedMigrations } from "../../scripts/status-warmup.mjs";
import { plainStatus } from "../../src/cli-status.ts";
import { runProcess, SOURCE_BIN } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { runBuiltRecordingLoads } from "../helpers/module-loads.ts";
import { binNodeFlags, cacheFileFor, cacheTaken } from "../helpers/one-file.ts";
import { startTlsFront, type TlsFront, viaFront } from "../helpers/tls-front.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BUILT = path.join(ROOT, "bin", "regwatch.js");
// The build must print what the sources print: the one reason these tests start the sources.
const SOURCES = SOURCE_BIN;
const STATUS_FILE = path.join(ROOT, "dist", "cli-status.cjs");
const scratch = mkdtempSync(path.join(tmpdir(), "regwatch-status-build-"));

/** The report without the lines that hold the moment it was made. */
function steady(out: string): string {
  return out
    .split("\n")
    .filter((line, i) => i > 0 && !line.includes('"generatedAt"'))
    .join("\n");
}

/** bin/regwatch.js with the status file, and `cache` as its cache, in a folder of their own (no src/). */
function installWithCache(name: string, cache: Buffer): string {
  const dir = path.join(scratch, name);
  mkdirSync(path.join(dir, "bin"), { recursive: true });
  mkdirSync(path.join(dir, "dist"), { recursive: true });
  copyFileSync(path.join(ROOT, "package.json"), path.join(dir, "package.json"));
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  symlinkSync(path.join(ROOT, "migrations"), path.join(dir, "migrations"));
  copyFileSync(BUILT, path.join(dir, "bin", "regwatch.js"));
  copyFileSync(path.join(ROOT, "bin", "package.json"), path.join(dir, "bin", "package.json"));
  copyFileSync(path.join(ROOT, "dist", "cli.js"), path.join(dir, "dist", "cli.js"));
  copyFileSync(STATUS_FILE, path.join(dir, "dist", "cli-status.cjs"));
  const status = path.join(dir, "dist", "cli-status.cjs");
  for (const flags of [[], ["--max-semi-space-size=2"]]) writeFileSync(cacheFileFor(status, flags), cache);
  return path.join(dir, "bin", "regwatch.js");
}

describe("status from the build", () => {
  let t: TestDatabase;
  let front: TlsFront | undefined;
  beforeAll(async () => {
    t = await createTestDatabase();
    await t.db.sql`
      insert into regwatch.watch_lists (list_key, list_name, created_at, watch_count)
      values ('wl_a', 'a list', current_date - 30, 2)`;
    await t.db.sql`
      insert into regwatch.coverage (list_key, start_date, end_date)
      values ('wl_a', current_date - 30, current_date - 20), ('wl_a', current_date - 10, current_date - 3)`;
    await t.db.sql`
      insert into regwatch.runs (kind, trigger, started_at, finished_at, status, stats)
      values ('sync', 'cli', now() - interval '1 hour', now() - interval '59 minutes', 'ok', '{"changesWritten": 4}')`;
  });
  afterAll(async () => {
    await front?.close();
    await t?.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("is one CommonJS file that requires no other file of dist/", () => {
    const text = readFileSync(STATUS_FILE, "utf8");
    expect(text).toMatch(/^\/\/ src\/commands\/status\.ts$/m);
    expect(text).toMatch(/^module\.exports = __toCommonJS\(/m);
    expect(text).not.toMatch(/\brequire\(\s*["']\.\.?\//);
    expect(text).not.toMatch(/\bimport\(\s*["']/);
  });

  it("has code caches that Node takes when started as `node bin/regwatch.js` and as the bin's shell line starts it", async () => {
    const shell = await binNodeFlags(["status"]);
    expect(shell.length).toBeGreaterThan(0);
    for (const flags of [[], shell])
      expect(cacheTaken(flags, STATUS_FILE, cacheFileFor(STATUS_FILE, flags))).toBe(true);
    // The check can fail: V8 refuses the cache of another file (the overview's) under this build's stamp.
    const stamp = readFileSync(STATUS_FILE, "utf8").split("\n")[0];
    const overviewCache = readFileSync(cacheFileFor(path.join(ROOT, "dist", "cli-overview.cjs"), []));
    const foreign = path.join(scratch, "foreign.cache");
    writeFileSync(
      foreign,
      Buffer.concat([
        Buffer.from(`${stamp}\n`, "latin1"),
        overviewCache.subarray(overviewCache.indexOf(10) + 1),
      ]),
    );
    expect(cacheTaken([], STATUS_FILE, foreign)).toBe(false);
  });

  it("prints what the sources print, as text and as JSON", async () => {
    const env = { DATABASE_URL: t.url, REGWATCH_LOG_LEVEL: "warn" };
    for (const args of [["status"], ["status", "--json"]]) {
      const [built, sources] = await Promise.all([
        runProcess(process.execPath, [BUILT, ...args], env, 60_000),
        runProcess(process.execPath, [SOURCES, ...args], env, 60_000),
      ]);
      expect(built.code, built.stderr).toBe(0);
      expect(sources.code, sources.stderr).toBe(0);
      // The moment of the report (its first line, its generatedAt) is each run's own.
      expect(steady(built.stdout)).toBe(steady(sources.stdout));
      expect(built.stdout).toContain("a list");
    }
  });

  it("answers help, mistakes and the options it does not read by hand as the sources' commander does", async () => {
    const env = { DATABASE_URL: t.url, REGWATCH_LOG_LEVEL: "warn" };
    for (const args of [
      ["status", "--help"],
      ["status", "--json", "--nope"],
      ["status", "extra"],
      ["status", "--account"],
      ["status", "--fleet"],
      ["help", "status"],
    ]) {
      const [built, sources] = await Promise.all([
        runProcess(process.execPath, [BUILT, ...args], env, 60_000),
        runProcess(process.execPath, [SOURCES, ...args], env, 60_000),
      ]);
      expect({ code: built.code, stdout: built.stdout, stderr: built.stderr }, args.join(" ")).toEqual({
        code: sources.code,
        stdout: sources.stdout,
        stderr: sources.stderr,
      });
    }
  });

  it("reads `status` and `status --json` by hand, and leaves every other command line to commander", () => {
    expect(plainStatus(["status"])).toEqual({});
    expect(plainStatus(["status", "--json"])).toEqual({ json: true });
    expect(plainStatus(["status", "--json", "--json"])).toEqual({ json: true });
    for (const args of [
      ["status", "--help"],
      ["status", "-h"],
      ["status", "--json", "--fleet"],
      ["status", "--account", "a"],
      ["status", "--json=1"],
      ["status", "extra"],
      ["status", "--"],
      ["help", "status"],
      [],
    ])
      expect(plainStatus(args), args.join(" ")).toBeUndefined();
  });

  it("prints the same with a cache that is not of its build, not V8's, or made under other flags", async () => {
    const env = { DATABASE_URL: t.url, REGWATCH_LOG_LEVEL: "warn" };
    const expected = await runProcess(BUILT, ["status"], env, 60_000);
    expect(expected.code, expected.stderr).toBe(0);
    const stamp = Buffer.from(`${readFileSync(STATUS_FILE, "latin1").split("\n")[0]}\n`, "latin1");
    const garbage = Buffer.from("not a code cache, whatever its name says".repeat(100));
    for (const [name, cache] of [
      ["another build's", garbage],
      ["empty", Buffer.alloc(0)],
      ["not V8's", Buffer.concat([stamp, garbage])],
      // Written under the shell line's name too, where V8 refuses it: made without flags.
      ["other flags'", readFileSync(cacheFileFor(STATUS_FILE, []))],
    ] as const) {
      const run = await runProcess(installWithCache(name, cache), ["status"], env, 60_000);
      expect(run.code, `${name}: ${run.stderr}`).toBe(0);
      expect(run.stderr).toBe("");
      expect(steady(run.stdout)).toBe(steady(expected.stdout));
    }
  });

  it("loads neither child_process, tls nor crypto for a status over a plain connection without a password", async () => {
    const run = await runBuiltRecordingLoads(["status"], { DATABASE_URL: t.url, REGWATCH_LOG_LEVEL: "warn" });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("a list");
    expect(run.loaded).toContain("NativeModule net");
    expect(run.loaded).not.toContain("NativeModule child_process");
    expect(run.loaded).not.toContain("NativeModule tls");
    // node-cron's matcher without a task, and the driver's password hashing only when asked for.
    expect(run.loaded).not.toContain("NativeModule crypto");
  });

  it("loads neither node:fs/promises (readline with it) nor the modules behind node:util's exports", async () => {
    // Reading every export of node:util, as a bundle's copy of its namespace did, loads
    // worker_threads, parseArgs and the stream classes on Node 26.
    const run = await runBuiltRecordingLoads(["status"], { DATABASE_URL: t.url, REGWATCH_LOG_LEVEL: "warn" });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("a list");
    for (const module of [
      "fs/promises",
      "internal/readline/interface",
      "worker_threads",
      "internal/util/parse_args/parse_args",
    ])
      expect(run.loaded).not.toContain(`NativeModule ${module}`);
  });

  it("builds no Intl formatter for a status in a zone the build's table holds, and prints the same", async () => {
    // A preload that makes every Intl date formatter fail: the report's times, its zone's short
    // name and the schedule's matching come from Temporal and the table (src/zone-clock.ts).
    const preload = path.join(scratch, "no-intl.cjs");
    writeFileSync(
      preload,
      'Intl.DateTimeFormat = function () { throw new Error("an Intl date formatter was built"); };\n',
    );
    const env = { DATABASE_URL: t.url, REGWATCH_LOG_LEVEL: "warn", REGWATCH_TZ: "Europe/Budapest" };
    for (const args of [["status"], ["status", "--json"]]) {
      const [without, expected] = await Promise.all([
        runProcess(process.execPath, ["--require", preload, BUILT, ...args], env, 60_000),
        runProcess(process.execPath, [BUILT, ...args], env, 60_000),
      ]);
      expect(without.code, without.stderr).toBe(0);
      expect(without.stdout).toMatch(
        /^regwatch status at \d{4}-\d{2}-\d{2} \d{2}:\d{2} (CET|CEST);|"timeZone"/,
      );
      expect(steady(without.stdout)).toBe(steady(expected.stdout));
    }
  });

  it("runs a whole status against the replayed server its code cache is warmed with", async () => {
    // The build warms the status file's cache with a status against a stand-in that replays a
    // recording (scripts/status-warmup.mjs): a status whose statements changed since no longer
    // fits it, and its cache then stops at the first misfit. `node scripts/status-warmup.mjs
    // --record` (with TEST_DATABASE_URL) records it again.
    const recording = JSON.parse(readFileSync(CONVERSATION, "utf8")) as { server: string };
    const replay = await replayServer(recording, shippedMigrations());
    try {
      const run = await runProcess(BUILT, ["status"], { DATABASE_URL: replay.url }, 60_000);
      expect(run.code, `the recording no longer fits (record it again): ${run.stderr}`).toBe(0);
      expect(run.stdout).toContain("a list");
      expect(run.stdout).toMatch(/Last runs\n {2}#1 +sync +cli +ok/);
    } finally {
      await replay.close();
    }
  });

  it("speaks TLS to a database that asks for it", async () => {
    front = await startTlsFront(new URL(t.url));
    const before = front.serverNames.length;
    const run = await runProcess(
      BUILT,
      ["status"],
      { DATABASE_URL: viaFront(t.url, front, "localhost", "require"), REGWATCH_LOG_LEVEL: "warn" },
      60_000,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("a list");
    expect(front.serverNames.slice(before)).toContain("localhost");
  });
});

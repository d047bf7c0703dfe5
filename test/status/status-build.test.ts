/**
 * `regwatch status` from the build runs from a file of its own (dist/cli-status.js, which bin/regwatch.js
 * picks for it): that file imports no other file of dist/, and prints what the sources print.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProcess } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BUILT = path.join(ROOT, "bin", "regwatch.js");
const SOURCES = path.join(ROOT, "bin", "regwatch-src.js");

describe("status from the build", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    const build = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: ROOT, encoding: "utf8" });
    expect(build.status, build.stderr).toBe(0);
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
    await t?.drop();
  });

  it("is one file that imports no other file of dist/", () => {
    const text = readFileSync(path.join(ROOT, "dist", "cli-status.js"), "utf8");
    expect(text).toMatch(/^\/\/ src\/commands\/status\.ts$/m);
    expect(text).not.toMatch(/\bfrom\s+["']\.\.?\//);
    expect(text).not.toMatch(/\bimport\(\s*["']\.\.?\//);
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
      const steady = (out: string) =>
        out
          .split("\n")
          .filter((line, i) => i > 0 && !line.includes('"generatedAt"'))
          .join("\n");
      expect(steady(built.stdout)).toBe(steady(sources.stdout));
      expect(built.stdout).toContain("a list");
    }
  });
});

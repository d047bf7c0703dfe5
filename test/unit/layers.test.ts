import { execFile } from "node:child_process";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { findViolations, readSources } from "../../scripts/check-layers.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);

/** Runs the check as `npm run check` does; resolves with its exit code and output. */
async function checkLayers(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [path.join(ROOT, "bin/run-ts.js"), path.join(ROOT, "scripts/check-layers.ts"), ...args],
      { cwd: ROOT },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const files = (entries: Record<string, string>) => new Map(Object.entries(entries));

describe("the layer check", () => {
  it("accepts imports that point down or stay in their folder", () => {
    expect(
      findViolations(
        files({
          "commands/sync.ts":
            'import { runSync } from "../sync/sync-job.ts";\nimport { x } from "./context.ts";',
          "sync/sync-job.ts":
            'import type { Sql } from "../db/connect.ts";\nimport { EXIT } from "../errors.ts";',
          "reconcile/plan.ts": 'import { chunk } from "../sync/plan.ts";',
          "commands/emulator.ts": 'import { startEmulator } from "../emulator/index.ts";',
          "cli.ts": 'const m = await import("./commands/sync.ts");',
        }),
      ),
    ).toEqual([]);
  });

  it("names a planted upward import, a peer import between db and api, and an emulator import", () => {
    const found = findViolations(
      files({
        "db/window.ts": 'import type { ChangedItem } from "../api/watch-schemas.ts";',
        "db/coverage.ts": 'import type { Interval } from "../sync/plan.ts";',
        "sync/window-run.ts": 'import { startEmulator } from "../emulator/index.ts";',
        "api/http.ts": 'export { x } from "../daemon/metrics.ts";',
      }),
    );
    expect(found.map((v) => `${v.file} -> ${v.imports}`)).toEqual([
      "src/db/window.ts -> src/api/watch-schemas.ts",
      "src/db/coverage.ts -> src/sync/plan.ts",
      "src/sync/window-run.ts -> src/emulator/index.ts",
      "src/api/http.ts -> src/daemon/metrics.ts",
    ]);
    expect(found[1]!.reason).toMatch(/imports upward/);
    expect(found[2]!.reason).toMatch(/only commands\/ may import the emulator/);
  });

  it("asks for a layer for a folder it does not know", () => {
    const [v] = findViolations(files({ "sync/a.ts": 'import { y } from "../mystery/b.ts";' }));
    expect(v!.reason).toMatch(/src\/mystery\/ has no layer/);
  });
});

describe("the layer check over the repository", () => {
  it("finds every import of src/ pointing down", async () => {
    expect(findViolations(await readSources(path.join(ROOT, "src")))).toEqual([]);
    const result = await checkLayers();
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/every import points down/);
  });

  it("fails, naming the file, when an upward import is planted in a copy of src/", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "regwatch-layers-"));
    try {
      await cp(path.join(ROOT, "src"), dir, { recursive: true });
      const planted = path.join(dir, "db/coverage.ts");
      await writeFile(
        planted,
        `import type { Window } from "../sync/plan.ts";\n${await readFile(planted, "utf8")}`,
      );
      const result = await checkLayers(dir);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /src\/db\/coverage\.ts imports src\/sync\/plan\.ts: db\/ \(layer 1\) imports upward/,
      );
      expect(result.stderr).toMatch(/1 import\(s\) against the layering/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

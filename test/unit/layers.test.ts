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
  it("accepts imports that point down a floor or stay in their folder", () => {
    expect(
      findViolations(
        files({
          "commands/sync.ts":
            'import { runSyncJob } from "../jobs/sync-job.ts";\nimport { x } from "./context.ts";',
          "jobs/sync-job.ts":
            'import { deliverAfterRun } from "../alerts/hooks.ts";\nimport { runSyncPass } from "../sync/sync-pass.ts";',
          "sync/sync-pass.ts": 'import { loadCoverage } from "./sql/coverage.ts";',
          "sync/sql/coverage.ts":
            'import type { Sql } from "../../db/connect.ts";\nimport { EXIT } from "../../errors.ts";',
          "payments/report-csv.ts": 'import { CsvFormat } from "../formats/write/csv-writer.ts";',
          "commands/emulator.ts": 'import { startEmulator } from "../emulator/index.ts";',
          "cli.ts": 'const m = await import("./commands/sync.ts");',
        }),
      ),
    ).toEqual([]);
  });

  it("names a feature importing a feature, an upward import, a peer of db and an emulator import", () => {
    const found = findViolations(
      files({
        "payments/check-chunk.ts": 'import { saveBusinesses } from "../search/save-businesses.ts";',
        "formats/read/xlsx.ts": 'import type { PaymentRow } from "../../payments/batch-row.ts";',
        "sync/window-run.ts": 'import { startEmulator } from "../emulator/index.ts";',
        "api/http.ts": 'export { x } from "../db/connect.ts";',
      }),
    );
    expect(found.map((v) => `${v.file} -> ${v.imports}`)).toEqual([
      "src/payments/check-chunk.ts -> src/search/save-businesses.ts",
      "src/formats/read/xlsx.ts -> src/payments/batch-row.ts",
      "src/sync/window-run.ts -> src/emulator/index.ts",
      "src/api/http.ts -> src/db/connect.ts",
    ]);
    expect(found[0]!.reason).toBe("payments/ imports search/, its peer on floor 4");
    expect(found[1]!.reason).toBe("formats/ (floor 1) imports upward into payments/ (floor 4)");
    expect(found[2]!.reason).toMatch(/only commands\/ may import the emulator/);
    expect(found[3]!.reason).toBe("api/ imports db/, its peer on floor 1");
  });

  it("names a circle of imports among the files of one folder, once", () => {
    const found = findViolations(
      files({
        "payments/verdicts.ts": 'import { judge } from "./verdict-row.ts";',
        "payments/verdict-row.ts": 'import type { Verdict } from "./next-step.ts";',
        "payments/next-step.ts": 'import type { CheckedRow } from "./verdicts.ts";',
        "payments/totals.ts": 'import type { CheckedRow } from "./verdicts.ts";',
      }),
    );
    expect(found).toEqual([
      {
        file: "src/payments/next-step.ts",
        imports: "src/payments/verdict-row.ts, src/payments/verdicts.ts",
        reason: "a circle of imports among 3 files of src/payments/",
      },
    ]);
  });

  it("asks for a floor for a folder it does not know", () => {
    const [v] = findViolations(files({ "sync/a.ts": 'import { y } from "../mystery/b.ts";' }));
    expect(v!.reason).toMatch(/src\/mystery\/ has no floor/);
  });
});

describe("the layer check over the repository", () => {
  it("finds every import of src/ pointing down", async () => {
    expect(findViolations(await readSources(path.join(ROOT, "src")))).toEqual([]);
    const result = await checkLayers();
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/every import points down, and no folder holds a circle/);
  });

  it("fails, naming the file, when an upward import is planted in a copy of src/", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "regwatch-layers-"));
    try {
      await cp(path.join(ROOT, "src"), dir, { recursive: true });
      const planted = path.join(dir, "sync/sql/coverage.ts");
      await writeFile(
        planted,
        `import type { x } from "../../alerts/hooks.ts";\n${await readFile(planted, "utf8")}`,
      );
      const result = await checkLayers(dir);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /src\/sync\/sql\/coverage\.ts imports src\/alerts\/hooks\.ts: sync\/ imports alerts\/, its peer on floor 4/,
      );
      expect(result.stderr).toMatch(/1 import\(s\) against the floors/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

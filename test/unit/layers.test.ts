import { describe, expect, it } from "vitest";
import { findViolations } from "../../scripts/check-layers.ts";

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

import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Test files run in parallel, each in a database of its own cloned from a migrated template.
    pool: "forks",
    maxWorkers: 2,
    // Besides the terminal's report, a JSON one: .ci/run prints the slowest files from it.
    reporters: ["default", "json"],
    outputFile: { json: "test-output/vitest.json" },
    // Each project's global setup begins with test/setup/run-folder.ts: one folder for the run's
    // temporary files, removed at its end, and nothing left running when Ctrl-C stops it.
    // Two projects, so that a product failure is never lost among the emulator's own tests:
    // `npm test` runs both, `vitest run --project product` (or `emulator`) one of them.
    projects: [
      {
        extends: true,
        test: {
          name: "product",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/emulator/**"],
          globalSetup: ["test/setup/run-folder.ts", "test/setup/database.ts", "test/setup/build.ts"],
        },
      },
      {
        extends: true,
        test: {
          // The registry twin's own behaviour; it needs no database.
          name: "emulator",
          include: ["test/emulator/**/*.test.ts"],
          globalSetup: ["test/setup/run-folder.ts", "test/setup/build.ts"],
        },
      },
    ],
  },
});

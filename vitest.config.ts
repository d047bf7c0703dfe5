import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/setup/database.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Test files run in parallel, each in a database of its own cloned from a migrated template.
    pool: "forks",
    maxWorkers: 2,
  },
});

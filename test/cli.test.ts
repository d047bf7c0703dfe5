import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.ts";
import { createEmptyDatabase } from "./helpers/db.ts";

describe("regwatch command line", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it("prints help and exits 0", async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("migrate");
  });

  it("exits 64 naming an unknown command", async () => {
    const result = await runCli(["frobnicate"]);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain("frobnicate");
  });

  it("migrates a DATABASE_URL database twice, both times with exit 0", async () => {
    const target = await createEmptyDatabase();
    cleanups.push(target.drop);
    const first = await runCli(["migrate"], { DATABASE_URL: target.url });
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/applied \d+ migration/);
    const second = await runCli(["migrate"], { DATABASE_URL: target.url });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("up to date");
  });

  it("starts the embedded Postgres when no DATABASE_URL is set, and finds it again", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "regwatch-cli-"));
    await chmod(dir, 0o755); // the server runs as user postgres, which must reach its data
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const dataDir = path.join(dir, "data");
    const first = await runCli(["migrate"], { REGWATCH_DATA_DIR: dataDir }, 120_000);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    const second = await runCli(["migrate"], { REGWATCH_DATA_DIR: dataDir }, 120_000);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("up to date");
    // The process that started the server stopped it when it was done.
    const { stdout } = await import("node:child_process").then((cp) =>
      import("node:util").then((u) => u.promisify(cp.execFile)("ps", ["-eo", "args"])),
    );
    expect(stdout).not.toContain(dataDir);
  });

  it("exits 78 and names every bad variable", async () => {
    const result = await runCli(["migrate"], { REGWATCH_RATE_LIMIT: "abc", REGWATCH_TZ: "Mars/Base" });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("REGWATCH_RATE_LIMIT");
    expect(result.stderr).toContain("REGWATCH_TZ");
  });

  it("keeps DATABASE_URL's password out of error messages", async () => {
    const result = await runCli(["migrate"], { DATABASE_URL: "postgres://u:s3cretpw@127.0.0.1:1/nowhere" });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain("s3cretpw");
  });
});

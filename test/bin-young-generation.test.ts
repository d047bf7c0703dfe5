/**
 * The young generation the published bin gives Node per command (its line 2, a `case` for the
 * shell): 4 MB halves and glibc's malloc held to two arenas for `payments check`, whose rows
 * outlive 2 MB collections, except with --xlsx (no gain there, a higher peak); 2 MB for everything
 * else, with malloc as the environment sets it.
 */
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runProcess } from "./helpers/cli.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(tmpdir(), "regwatch-bin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The bin beside a stand-in build that prints how Node was started. */
function binWithFakeBuild(): string {
  writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }\n');
  mkdirSync(path.join(dir, "bin"), { recursive: true });
  mkdirSync(path.join(dir, "dist"), { recursive: true });
  const bin = path.join(dir, "bin", "regwatch.js");
  copyFileSync(path.join(ROOT, "bin", "regwatch.js"), bin);
  copyFileSync(path.join(ROOT, "bin", "package.json"), path.join(dir, "bin", "package.json"));
  chmodSync(bin, 0o755);
  writeFileSync(
    path.join(dir, "dist", "cli.js"),
    "console.log(JSON.stringify({ execArgv: process.execArgv, argv: process.argv.slice(2), arenas: process.env.MALLOC_ARENA_MAX ?? null }));\n",
  );
  return bin;
}

describe("the young generation the bin starts Node with", () => {
  it("is larger for `payments check` and for no other command, nor for a workbook's check", async () => {
    const bin = binWithFakeBuild();
    const started = async (args: string[]) => JSON.parse((await runProcess(bin, args, {}, 30_000)).stdout);
    expect(await started(["payments", "check", "batch.csv", "--json"])).toEqual({
      execArgv: ["--max-semi-space-size=4"],
      argv: ["payments", "check", "batch.csv", "--json"],
      arenas: "2",
    });
    for (const args of [
      ["payments", "verify", "x"],
      ["payments"],
      ["check", "payments"],
      ["payments", "check", "batch.csv", "--xlsx", "out.xlsx"],
    ])
      expect(await started(args)).toMatchObject({ execArgv: ["--max-semi-space-size=2"], arenas: null });
  });
});

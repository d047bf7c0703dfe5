/**
 * `regwatch doctor` as a user runs it: exit 0 against the emulator, 1 when a check fails, 78 for
 * configuration (every bad variable named, and a missing watch address reported with the checks
 * that could still run), `--json` for scripts, and registry text made harmless on a terminal.
 */
import { describe, expect, it } from "vitest";
import type { DoctorReport } from "../../src/doctor/report.ts";
import { runCli } from "../helpers/cli.ts";
import { doctorWorld } from "./harness.ts";

const world = doctorWorld(75);
const env = world.env;

describe("regwatch doctor on the command line", () => {
  it("exits 0 against the emulator, one line per check", async () => {
    const result = await runCli(["doctor"], env());
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^ok {4}configuration +valid: \d+ variable\(s\) set \(DATABASE_URL, /);
    expect(lines.some((l) => /^ok {4}watch key +the key was accepted/.test(l))).toBe(true);
    expect(lines.some((l) => /^ok {4}schedule +"15 7 \* \* \*" in Europe\/Budapest/.test(l))).toBe(true);
    expect(lines.at(-1)).toMatch(/ 0 fail: ready for the first run \(exit 0\)$/);
  });

  it("exits 1 with --json when the key is refused, without printing the key", async () => {
    const key = "refused-key-9876543210";
    const result = await runCli(["doctor", "--json"], env({ REGWATCH_API_KEY: key }));
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as DoctorReport;
    expect(report.status).toBe("fail");
    expect(report.exitCode).toBe(1);
    const watch = report.checks.find((c) => c.check === "watch key");
    expect(watch).toMatchObject({ status: "fail", next: expect.stringMatching(/REGWATCH_API_KEY/) });
    expect(watch?.message).toMatch(/refused the key/);
    expect(`${result.stdout}${result.stderr}`).not.toContain(key);
  });

  it("exits 78 naming every bad variable, without echoing a secret", async () => {
    const result = await runCli(["doctor", "--json"], {
      REGWATCH_RATE_LIMIT: "fast",
      REGWATCH_TZ: "Mars/Olympus",
      REGWATCH_API_KEY: "key-with\nnewline-0123",
    });
    expect(result.code).toBe(78);
    const report = JSON.parse(result.stdout) as DoctorReport;
    expect(report.checks.map((c) => [c.check, c.status, c.message.split(":")[0]])).toEqual([
      ["configuration", "fail", "REGWATCH_API_KEY"],
      ["configuration", "fail", "REGWATCH_RATE_LIMIT"],
      ["configuration", "fail", "REGWATCH_TZ"],
    ]);
    expect(result.stdout).not.toContain("newline-0123");
  });

  it("exits 78 without a watch address, and still reports what it could check", async () => {
    const result = await runCli(["doctor"], { DATABASE_URL: world.tdb.url });
    expect(result.code).toBe(78);
    expect(result.stdout).toMatch(
      /^FAIL {2}configuration +REGWATCH_WATCH_URL: not set; sync, reconcile and the daemon need it/m,
    );
    expect(result.stdout).toMatch(/^FAIL {2}configuration +REGWATCH_API_KEY: not set/m);
    expect(result.stdout).toMatch(/^ok {4}migrations +all \d+ migrations applied/m);
    expect(result.stdout).toMatch(
      /the configuration is invalid: fix the variables named above \(exit 78\)\n$/,
    );
  });

  it("shows a registry's control characters as escapes, never as terminal sequences or forged lines", async () => {
    world.hostile.answer = (_req, res) => {
      res.statusCode = 401;
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ message: "bad key \u001b[2J\u001b[32mok\nok    watch key   forged" }));
    };
    const result = await runCli(
      ["doctor"],
      env({ REGWATCH_WATCH_URL: world.hostile.origin, REGWATCH_SEARCH_URL: undefined }),
    );
    expect(result.code).toBe(1);
    const line = result.stdout.split("\n").find((l) => l.startsWith("FAIL  watch key"));
    expect(line).toContain("answered 401 (bad key ");
    expect(result.stdout).not.toContain("\u001b");
    expect(result.stdout).not.toMatch(/^ok +watch key/m);
  });
});

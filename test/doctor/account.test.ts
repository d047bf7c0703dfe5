/**
 * `regwatch doctor --account NAME` on the command line: the plain checks run on the account's
 * configuration (its registry and key, its schema), plus its key variables (named, never their
 * values), the job queue and the account's jobs that failed for good.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DoctorReport } from "../../src/doctor/report.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { enqueue } from "../../src/fleet/queue.ts";
import { silentLogger } from "../../src/logger.ts";
import { type FleetFiles, prepareFleet, writeAccountsFile } from "../fleet-daemon/fleet-fixture.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const KEY = "alpha-doctor-key-5521";
let emulator: RunningEmulator;
let t: TestDatabase;
let files: FleetFiles;

beforeAll(async () => {
  [t, emulator] = await Promise.all([
    createTestDatabase(),
    startEmulator({ seed: 91, businesses: 200, apiKey: KEY }),
  ]);
  files = writeAccountsFile([
    { name: "alpha", watch_url: `${emulator.url}/v2`, api_key_env: "ALPHA_KEY" },
    { name: "beta", watch_url: `${emulator.url}/v2`, api_key_env: "BETA_KEY_MISSING" },
  ]);
  await prepareFleet(t.url, ["alpha", "beta"]);
  const [job] = await enqueue(
    { databaseUrl: t.url, log: silentLogger },
    [{ kind: "sync", account: "beta", day: "2026-03-10" }],
    { maxAttempts: 2 },
  );
  await t.db.sql`
    update graphile_worker._private_jobs set attempts = 2, last_error = 'the registry refused the key (401)'
    where id = ${job!.id}`;
}, 120_000);

afterAll(async () => {
  await emulator?.close();
  await t?.drop();
  files?.remove();
});

function env(extra: Record<string, string> = {}) {
  return { DATABASE_URL: t.url, REGWATCH_ACCOUNTS_FILE: files.accountsFile, ALPHA_KEY: KEY, ...extra };
}

const check = (report: DoctorReport, name: string) => report.checks.filter((c) => c.check === name);

describe("doctor --account", () => {
  it("checks the account's registry with its key, its schema, its key variable and the queue", async () => {
    const r = await runCli(["doctor", "--account", "alpha", "--json"], env());
    const report = JSON.parse(r.stdout) as DoctorReport;
    expect(check(report, "account key")).toEqual([
      {
        check: "account key",
        status: "ok",
        message: 'ALPHA_KEY is set (account "alpha" names it in api_key_env)',
      },
    ]);
    expect(check(report, "watch key")[0]).toMatchObject({ status: "ok" });
    expect(check(report, "migrations")[0]).toMatchObject({ status: "ok" });
    expect(check(report, "job queue")[0]).toMatchObject({ status: "ok" });
    expect(check(report, "failed jobs")[0]).toMatchObject({ status: "ok" });
    expect(check(report, "workers")[0]).toMatchObject({ status: "warn" });
    expect(report.checks.filter((c) => c.status === "fail")).toEqual([]);
    expect(r.code).toBe(0);
    expect(emulator.requests().every((q) => q.key === undefined || q.key === KEY)).toBe(true);
    expect(r.stdout).not.toContain(KEY);
  });

  it("names a key variable that is not set (78), and the account's failed jobs", async () => {
    const r = await runCli(["doctor", "--account", "beta"], env());
    expect(r.code).toBe(78);
    expect(r.stdout).toMatch(
      /^FAIL {2}configuration +BETA_KEY_MISSING: not set or empty; account "beta" names it in api_key_env for its key/m,
    );
    expect(r.stdout).toMatch(
      /^WARN {2}failed jobs +1 job\(s\) of account "beta" failed for good: beta:sync:2026-03-10 after 2 attempts: the registry refused the key \(401\)/m,
    );
    // The database was still checked, in beta's schema.
    expect(r.stdout).toMatch(/^ok {4}migrations /m);
    // Advice speaks of the account's own settings, not the plain install's variables.
    expect(r.stdout).not.toMatch(/REGWATCH_(API_KEY|WATCH_URL|SEARCH_URL|FILE_ORIGINS)\b/);
  });

  it("--all checks every account, one report each, and exits with the worst", async () => {
    const r = await runCli(["doctor", "--all", "--json"], env());
    expect(r.code).toBe(78);
    const all = JSON.parse(r.stdout) as {
      exitCode: number;
      accounts: (DoctorReport & { account: string })[];
    };
    expect(all.accounts.map((a) => [a.account, a.exitCode])).toEqual([
      ["alpha", 0],
      ["beta", 78],
    ]);
    const text = await runCli(["doctor", "--all"], env());
    expect(text.stdout).toMatch(/^Account alpha\n/);
    expect(text.stdout).toMatch(/\nAccount beta\n/);
    expect((await runCli(["doctor", "--all", "--account", "alpha"], env())).code).toBe(64);
    expect((await runCli(["doctor", "--all"], { DATABASE_URL: t.url })).code).toBe(64);
  });

  it("needs --account with two accounts (64), and knows only the file's accounts (64)", async () => {
    const none = await runCli(["doctor"], env());
    expect(none.code).toBe(64);
    expect(none.stderr).toContain(
      "--account NAME is required: 2 accounts (alpha, beta); or --all to check every account",
    );
    const unknown = await runCli(["doctor", "--account", "gamma"], env());
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toContain("alpha, beta");
  });
});

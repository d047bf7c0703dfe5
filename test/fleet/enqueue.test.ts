/**
 * `regwatch enqueue` and the queue's bookkeeping: jobs keyed per account and day, a second ask
 * for the same job adds nothing, usage errors exit 64, and the fleet commands need an accounts file.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDateTime } from "../../src/dates.ts";
import { queueCounts, queuedJobs } from "../../src/fleet/queue-counts.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { writeAccountsFile } from "./fleet-helpers.ts";

describe("regwatch enqueue", () => {
  let t: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    t = await createTestDatabase();
    const file = writeAccountsFile([
      { name: "alpha", watch_url: "http://127.0.0.1:9/v2", api_key_env: "ALPHA_KEY" },
      { name: "beta", watch_url: "http://127.0.0.1:9/v2", api_key_env: "BETA_KEY" },
    ]);
    env = { DATABASE_URL: t.url, REGWATCH_ACCOUNTS_FILE: file, REGWATCH_TZ: "Europe/Budapest" };
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("needs an accounts file, like the worker (exit 78 naming the variable)", async () => {
    for (const args of [["enqueue", "sync", "--all"], ["worker"]]) {
      const result = await runCli(args, { DATABASE_URL: t.url });
      expect(result.code).toBe(78);
      expect(result.stderr).toMatch(/REGWATCH_ACCOUNTS_FILE/);
    }
  });

  it("refuses bad arguments with exit 64, naming what is wrong", async () => {
    const cases: [string[], RegExp][] = [
      [["enqueue", "rebuild", "--all"], /unknown job kind "rebuild"/],
      [["enqueue", "sync"], /--account NAME\.\.\. or --all is required/],
      [["enqueue", "sync", "--all", "--account", "alpha"], /either --account NAME\.\.\. or --all/],
      [["enqueue", "sync", "--account", "gamma"], /unknown account gamma: the accounts file has alpha, beta/],
      [["enqueue", "sync", "--all", "--from", "2026-01-01"], /--from and --to are for backfill jobs only/],
      [["enqueue", "backfill", "--all", "--from", "2026-01-01"], /needs both --from and --to/],
      [["enqueue", "backfill", "--all", "--from", "2026-02-01", "--to", "2026-01-01"], /is before --from/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args, env);
      expect(result.stderr).toMatch(message);
      expect(result.code).toBe(64);
    }
  });

  it("adds one job per account and key; asking again adds nothing", async () => {
    const today = localDateTime(new Date(), "Europe/Budapest").date;
    const first = await runCli(["enqueue", "sync", "--all"], env);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^added +alpha:sync:${today} \\(job \\d+\\)$`, "m"));
    expect(first.stdout).toMatch(new RegExp(`^added +beta:sync:${today} \\(job \\d+\\)$`, "m"));

    const again = await runCli(["enqueue", "sync", "--account", "beta", "--account", "alpha"], env);
    expect(again.code).toBe(0);
    expect(again.stdout.trim().split("\n")).toHaveLength(2);
    expect(again.stdout).toMatch(new RegExp(`^already queued +alpha:sync:${today}`, "m"));
    expect(again.stdout).toMatch(new RegExp(`^already queued +beta:sync:${today}`, "m"));

    const backfill = await runCli(
      ["enqueue", "backfill", "--account", "alpha", "--from", "2026-01-01", "--to", "2026-01-31"],
      env,
    );
    expect(backfill.code).toBe(0);
    expect(backfill.stdout).toMatch(/^added +alpha:backfill:2026-01-01\.\.2026-01-31/m);

    const jobs = await queuedJobs(t.db.sql);
    expect(jobs.map((j) => [j.account, j.task, j.key, j.maxAttempts])).toEqual([
      ["alpha", "regwatch_sync", `alpha:sync:${today}`, 5],
      ["beta", "regwatch_sync", `beta:sync:${today}`, 5],
      ["alpha", "regwatch_backfill", "alpha:backfill:2026-01-01..2026-01-31", 5],
    ]);
    expect(await queueCounts(t.db.sql)).toEqual([
      { account: "alpha", queued: 2, running: 0, failed: 0 },
      { account: "beta", queued: 1, running: 0, failed: 0 },
    ]);
  });

  it("lists the queue oldest job first, by the job's number (not its text: 10 after 9)", async () => {
    for (let day = 1; day <= 12; day++) {
      const date = `2025-02-${String(day).padStart(2, "0")}`;
      const added = await runCli(
        ["enqueue", "backfill", "--account", "beta", "--from", date, "--to", date],
        env,
      );
      expect(added.code, added.stderr).toBe(0);
    }
    const ids = (await queuedJobs(t.db.sql)).map((j) => Number(j.id));
    expect(ids.some((id) => id >= 10)).toBe(true);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });
});

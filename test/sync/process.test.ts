/**
 * regwatch and the emulator as separate processes, on the real clock: the server's own count of
 * arrivals checks the pacing, and SIGKILL checks that a backfill survives being cut anywhere.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, daysBetween, localDateTime } from "../../src/dates.ts";
import type { RequestLogEntry } from "../../src/emulator/index.ts";
import { childBaseEnv } from "../helpers/child-env.ts";
import { BIN, runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type EmulatorProcess, startEmulatorProcess } from "../helpers/emulator-process.ts";
import { busiestSecond, coveredRanges, snapshot } from "../helpers/sync.ts";
import { waitUntil } from "../helpers/wait.ts";

const TZ = "Europe/Budapest";

async function seedLists(
  emulator: EmulatorProcess,
  lists: { name: string; daysAgo: number; size: number }[],
) {
  const records = await emulator.admin<{ tax_id: string; type: string }[]>("businesses?limit=400");
  const ids = records.filter((r) => r.type !== "budget_orgs").map((r) => r.tax_id);
  const today = localDateTime(new Date(), TZ).date;
  let offset = 0;
  for (const list of lists) {
    await emulator.admin("lists", {
      name: list.name,
      createdAt: addDays(today, -list.daysAgo),
      taxIds: ids.slice(offset, offset + list.size),
    });
    offset += Math.floor(list.size / 2); // neighbouring lists share half their items
  }
}

function env(emulator: EmulatorProcess, t: TestDatabase, extra: Record<string, string> = {}) {
  return {
    DATABASE_URL: t.url,
    REGWATCH_WATCH_URL: emulator.url,
    REGWATCH_API_KEY: emulator.apiKey,
    REGWATCH_TZ: TZ,
    ...extra,
  };
}

describe("pacing against the server's own count", () => {
  let emulator: EmulatorProcess;
  let t: TestDatabase;
  beforeAll(async () => {
    emulator = await startEmulatorProcess(["--seed", "21", "--businesses", "3000"]);
    await seedLists(emulator, [
      { name: "alpha", daysAgo: 30, size: 14 },
      { name: "beta", daysAgo: 24, size: 14 },
      { name: "gamma", daysAgo: 18, size: 14 },
    ]);
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
    await emulator?.stop();
  });

  it("stays within 30 requests in every second, and asks no interval it must not", async () => {
    const result = await runCli(["sync"], env(emulator, t, { REGWATCH_RATE_LIMIT: "30" }), 120_000);
    expect(result.stderr).not.toMatch(/regwatch: /);
    expect(result.code).toBe(0);
    const log = await emulator.admin<RequestLogEntry[]>("requests");
    expect(log.length).toBeGreaterThan(60);
    expect(log.filter((r) => r.status === 429)).toHaveLength(0);
    expect(busiestSecond(log.map((r) => r.at))).toBeLessThanOrEqual(30);

    const local = localDateTime(new Date(), TZ);
    const newestAllowed = addDays(local.date, local.hour >= 7 ? -1 : -2);
    for (const r of log.filter((e) => e.endpoint === "GET /v2/lists/:key/changes")) {
      expect(daysBetween(r.query.start_date!, r.query.end_date!) + 1).toBeLessThanOrEqual(7);
      expect(r.query.end_date! <= newestAllowed).toBe(true);
    }
  });
});

describe("a backfill killed at any moment", () => {
  let emulator: EmulatorProcess;
  let killed: TestDatabase;
  let clean: TestDatabase;
  const today = localDateTime(new Date(), TZ).date;
  const range = ["--from", addDays(today, -40), "--to", addDays(today, -3)];

  beforeAll(async () => {
    emulator = await startEmulatorProcess(["--seed", "22", "--businesses", "3000", "--rate-limit", "100"]);
    await seedLists(emulator, [
      { name: "one", daysAgo: 45, size: 16 },
      { name: "two", daysAgo: 45, size: 16 },
      { name: "three", daysAgo: 45, size: 16 },
    ]);
    killed = await createTestDatabase();
    clean = await createTestDatabase();
  });
  afterAll(async () => {
    await killed?.drop();
    await clean?.drop();
    await emulator?.stop();
  });

  it("ends, after reruns, with the same tables as an uninterrupted backfill", async () => {
    const extra = { REGWATCH_RATE_LIMIT: "100", REGWATCH_CONCURRENCY: "4" };
    const reference = await runCli(["backfill", ...range], env(emulator, clean, extra), 120_000);
    expect(reference.code).toBe(0);

    // Killed after one, two and four more windows have committed: windows are in flight then.
    for (const more of [1, 2, 4]) {
      const before = await coverageCount(killed);
      const child = spawn(process.execPath, [BIN, "backfill", ...range], {
        env: {
          ...childBaseEnv(),
          REGWATCH_LOG_LEVEL: "silent",
          ...env(emulator, killed, extra),
        },
        stdio: "ignore",
      });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      await waitUntil(async () => child.exitCode !== null || (await coverageCount(killed)) >= before + more, {
        what: `${more} more committed window(s)`,
      });
      child.kill("SIGKILL");
      await exited;
      // Its lease would end 30 s after its last renewal; ended now on the database's clock instead.
      await killed.db.sql`update regwatch.run_lease set expires_at = clock_timestamp() - interval '1 second'`;
    }
    const finish = await runCli(["backfill", ...range], env(emulator, killed, extra), 120_000);
    expect(finish.code).toBe(0);

    const runs = await killed.db.sql`select status, error from regwatch.runs order by id`;
    expect(runs.at(-1)?.status).toBe("ok");
    expect(runs.slice(0, -1).every((r) => r.status === "failed" && /abandoned/.test(String(r.error)))).toBe(
      true,
    );

    expect(await coveredRanges(killed.db.sql)).toEqual(await coveredRanges(clean.db.sql));
    const { coverage: _a, ...after } = await snapshot(killed.db.sql);
    const { coverage: _b, ...expected } = await snapshot(clean.db.sql);
    expect(after.changes.length).toBeGreaterThan(50);
    expect(after).toEqual(expected);
  });
});

/** Coverage rows (committed windows) in the database. */
async function coverageCount(t: TestDatabase): Promise<number> {
  const [row] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.coverage`;
  return row?.n ?? 0;
}

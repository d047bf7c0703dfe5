/**
 * The fleet's acceptance test (issue 29): two accounts on two registries (emulator processes, each
 * with its own key), two `regwatch worker` processes, `enqueue sync --all`, and one worker killed
 * while it is mid-job. The other worker takes the job over once the dead one's lease runs out, and
 * each account's tables end as a single-account `regwatch sync` leaves them; each registry saw only
 * its own key, and never more requests in a second than the account's limit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, localDateTime } from "../../src/dates.ts";
import type { RequestLogEntry } from "../../src/emulator/index.ts";
import { queuedJobs } from "../../src/fleet/queue-counts.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type EmulatorProcess, startEmulatorProcess } from "../helpers/emulator-process.ts";
import { busiestSecond } from "../helpers/sync.ts";
import { waitUntil } from "../helpers/wait.ts";
import { schemaSnapshot, spawnWorker, type WorkerProcess, writeAccountsFile } from "./fleet-helpers.ts";

const TZ = "Europe/Budapest";
const LIMIT = 10;
const NAMES = ["alpha", "beta"] as const;

/** Lists with history on the emulator: three lists of 14 businesses, neighbours sharing half. */
async function seed(emulator: EmulatorProcess, firstList: number): Promise<void> {
  const records = await emulator.admin<{ tax_id: string; type: string }[]>("businesses?limit=400");
  const ids = records.filter((r) => r.type !== "budget_orgs").map((r) => r.tax_id);
  const today = localDateTime(new Date(), TZ).date;
  for (let i = 0; i < 3; i++) {
    const taxIds = ids.slice(firstList + i * 7, firstList + i * 7 + 14);
    await emulator.admin("lists", { name: `list ${i}`, createdAt: addDays(today, -30 + i * 4), taxIds });
  }
}

async function apiRequests(emulator: EmulatorProcess): Promise<RequestLogEntry[]> {
  const log = await emulator.admin<RequestLogEntry[]>("requests");
  return log.filter((r) => r.origin === "api");
}

describe("two accounts, two workers, one of them killed mid-job", () => {
  const emulators: EmulatorProcess[] = [];
  const references: TestDatabase[] = [];
  let fleet: TestDatabase;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    for (const [i, name] of NAMES.entries()) {
      const emulator = await startEmulatorProcess([
        ...["--seed", String(31 + i), "--businesses", "3000", "--rate-limit", "30"],
        ...["--api-key", `key-${name}-${"x".repeat(24)}`],
      ]);
      await seed(emulator, i * 40);
      emulators.push(emulator);
      references.push(await createTestDatabase());
    }
    fleet = await createTestDatabase();
  });
  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
    await Promise.all(workers.map((w) => w.exited));
    for (const t of [...references, fleet]) await t?.drop();
    for (const e of emulators) await e.stop();
  });

  it("ends with each account's tables as one account's sync leaves them", { timeout: 240_000 }, async () => {
    // What one account alone gets: `regwatch sync` into schema regwatch of a fresh database.
    for (const [i, emulator] of emulators.entries()) {
      const result = await runCli(
        ["sync"],
        {
          DATABASE_URL: references[i]!.url,
          REGWATCH_WATCH_URL: emulator.watchUrl,
          REGWATCH_API_KEY: emulator.apiKey,
          REGWATCH_FILE_ORIGINS: emulator.fileOrigins,
          REGWATCH_RATE_LIMIT: String(LIMIT),
          REGWATCH_TZ: TZ,
        },
        120_000,
      );
      expect(result.stderr).not.toMatch(/regwatch: /);
      expect(result.code).toBe(0);
    }
    const before = await Promise.all(emulators.map(async (e) => (await apiRequests(e)).length));

    const file = writeAccountsFile(
      NAMES.map((name, i) => ({
        name,
        watch_url: emulators[i]!.watchUrl,
        api_key_env: `${name.toUpperCase()}_KEY`,
        file_origins: emulators[i]!.fileOrigins.split(","),
        rate_limit: LIMIT,
      })),
    );
    const env = {
      DATABASE_URL: fleet.url,
      REGWATCH_ACCOUNTS_FILE: file,
      REGWATCH_TZ: TZ,
      REGWATCH_JOB_LEASE_S: "3",
      ALPHA_KEY: emulators[0]!.apiKey,
      BETA_KEY: emulators[1]!.apiKey,
    };
    for (let i = 0; i < 2; i++) workers.push(spawnWorker(["--concurrency", "2"], env));
    await waitUntil(
      async () => {
        const [row] = await fleet.db.sql<{ n: number }[]>`
          select count(*)::int as n from regwatch.worker_heartbeats where stopped_at is null`;
        return row!.n === 2;
      },
      { what: "two workers' heartbeats", process: workers[0]!.child },
    );
    const enqueued = await runCli(["enqueue", "sync", "--all"], env);
    expect(enqueued.code).toBe(0);
    expect(enqueued.stdout.match(/^added /gm)).toHaveLength(2);

    // Killed while a job of it is calling its registry (a few requests in, the job not finished).
    const victim = await waitUntil(
      async () => {
        for (const [i, name] of NAMES.entries()) {
          const worker = workers.find((w) =>
            w.lines.some((l) => l.msg === "job started" && l.account === name),
          );
          if (!worker || worker.lines.some((l) => l.msg === "job finished" && l.account === name)) continue;
          if ((await apiRequests(emulators[i]!)).length >= before[i]! + 5) return worker;
        }
        return undefined;
      },
      { what: "a job calling its registry", everyMs: 25 },
    );
    victim.child.kill("SIGKILL");
    await victim.exited;
    // The run lease its job held ends 30 s after its last renewal; ended now on the database's clock
    // (only the dead worker's, by its pid) so the survivor's retries find the account free.
    for (const name of NAMES)
      await fleet.db.sql`
        update ${fleet.db.sql(`regwatch_${name}`)}.run_lease
        set expires_at = clock_timestamp() - interval '1 second' where pid = ${victim.child.pid!}`;
    const survivor = workers.find((w) => w !== victim)!;

    await waitUntil(async () => (await queuedJobs(fleet.db.sql)).length === 0, {
      what: "every job done",
      process: survivor.child,
      everyMs: 200,
    });
    const swept = await fleet.db.sql`
      select stop_reason from regwatch.worker_heartbeats where pid = ${victim.child.pid!}`;
    expect(swept.map((r) => r.stop_reason)).toEqual(["lease expired"]);

    for (const [i, name] of NAMES.entries()) {
      const schema = `regwatch_${name}`;
      const runs = await fleet.db.sql`
        select kind, status, trigger from ${fleet.db.sql(schema)}.runs where kind = 'sync' order by id`;
      // Queued by hand with `regwatch enqueue`: the run says so (a job the daemon queues says `schedule`).
      expect(runs.at(-1)).toMatchObject({ status: "ok", trigger: "manual" });
      const got = await schemaSnapshot(fleet.db.sql, schema);
      const expected = await schemaSnapshot(references[i]!.db.sql, "regwatch");
      expect(got.changes.length).toBeGreaterThan(10);
      expect(got).toEqual(expected);

      const log = await apiRequests(emulators[i]!);
      expect(log.length).toBeGreaterThan(before[i]!);
      expect(log.filter((r) => !r.keyValid)).toEqual([]);
      expect(log.filter((r) => r.status === 429)).toEqual([]);
      expect(busiestSecond(log.map((r) => r.at))).toBeLessThanOrEqual(LIMIT);
    }
    // The fleet's schema regwatch holds no account's data.
    const [home] = await fleet.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.changes`;
    expect(home!.n).toBe(0);
  });
});

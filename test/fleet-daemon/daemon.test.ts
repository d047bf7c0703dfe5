/**
 * `regwatch daemon` with an accounts file, as a subprocess: two accounts on two emulators with
 * keys of their own. At start each account's missed slot is asked of the queue (for the slot's
 * day in the account's zone) and the daemon's own worker runs it; each registry only ever sees its
 * own account's key; the metrics name the accounts; `--no-worker` only schedules.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { slotDay } from "../../src/daemon/fleet-plan.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { queuedJobs } from "../../src/fleet/queue-counts.ts";
import {
  type DaemonProcess,
  type LogLine,
  scheduleTwoHoursAgo,
  seedLists,
  startDaemon,
} from "../daemon/harness.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type FleetFiles, prepareFleet, writeAccountsFile } from "./fleet-fixture.ts";

const KEYS = { alpha: "alpha-key-7f3a9c", beta: "beta-key-2d8e41" };
let emulators: Record<"alpha" | "beta", RunningEmulator>;
let files: FleetFiles;
let t: TestDatabase;
const { schedule, slot } = scheduleTwoHoursAgo();
// beta's slot is the same instant on Tokyo's wall clock: its day is Tokyo's date of that instant.
const tokyo = new Date(slot.toLocaleString("en-US", { timeZone: "Asia/Tokyo" }));
const betaSchedule = `${tokyo.getMinutes()} ${tokyo.getHours()} * * *`;

const running: DaemonProcess[] = [];
function daemon(env: Record<string, string>, args: string[] = []): DaemonProcess {
  const d = startDaemon(env, args);
  running.push(d);
  return d;
}

function env(): Record<string, string> {
  return {
    DATABASE_URL: t.url,
    REGWATCH_ACCOUNTS_FILE: files.accountsFile,
    REGWATCH_SCHEDULE: schedule,
    REGWATCH_TZ: "UTC",
    ALPHA_KEY: KEYS.alpha,
    BETA_KEY: KEYS.beta,
    REGWATCH_RATE_LIMIT: "100",
    REGWATCH_RETRY_BASE_MS: "20",
    REGWATCH_LOG_LEVEL: "debug",
  };
}

beforeAll(async () => {
  emulators = {
    alpha: await startEmulator({ seed: 81, businesses: 1500, rateLimit: 200, apiKey: KEYS.alpha }),
    beta: await startEmulator({ seed: 82, businesses: 1500, rateLimit: 200, apiKey: KEYS.beta }),
  };
  await seedLists(emulators.alpha, [{ name: "alpha-list", daysAgo: 6, size: 5 }]);
  await seedLists(emulators.beta, [{ name: "beta-list", daysAgo: 4, size: 4 }]);
  files = writeAccountsFile([
    { name: "alpha", watch_url: emulators.alpha.url, api_key_env: "ALPHA_KEY" },
    {
      name: "beta",
      watch_url: emulators.beta.url,
      api_key_env: "BETA_KEY",
      schedule: betaSchedule,
      timezone: "Asia/Tokyo",
    },
  ]);
}, 120_000);

afterEach(async () => {
  await Promise.all(running.splice(0).map((d) => d.stop()));
  await t?.drop();
});

afterAll(async () => {
  await emulators?.alpha.close();
  await emulators?.beta.close();
  files?.remove();
});

const finished = (account: string) => (l: { msg: string; account?: unknown; kind?: unknown }) =>
  l.msg === "job finished" && l.account === account && l.kind === "sync";

describe("daemon with an accounts file", () => {
  it("asks for each account's missed slot and its own worker runs them, each with its own key", async () => {
    t = await createTestDatabase();
    emulators.alpha.resetLog();
    emulators.beta.resetLog();
    const d = daemon(env());
    const asked = await Promise.all(
      ["alpha", "beta"].map((a) => d.waitFor((l) => l.msg === "sync job asked for" && l.account === a)),
    );
    expect(asked.map((l) => [l.account, l.day, l.trigger])).toEqual([
      ["alpha", slotDay(slot, "UTC"), "catchup"],
      ["beta", slotDay(slot, "Asia/Tokyo"), "catchup"],
    ]);
    await Promise.all([d.waitFor(finished("alpha")), d.waitFor(finished("beta"))]);

    for (const account of ["alpha", "beta"] as const) {
      const runs = await t.db.sql.unsafe(
        `select kind, trigger, status from regwatch_${account}.runs order by id`,
      );
      expect(runs.map((r) => `${r.kind}/${r.trigger}/${r.status}`)).toEqual([
        "reconcile/schedule/ok",
        "sync/schedule/ok",
      ]);
      const [cov] = await t.db.sql.unsafe(`select count(*)::int as n from regwatch_${account}.coverage`);
      expect(cov!.n).toBeGreaterThan(0);
      const requests = emulators[account].requests().filter((r) => r.origin === "api");
      expect(requests.length).toBeGreaterThan(0);
      expect(new Set(requests.map((r) => r.key))).toEqual(new Set([KEYS[account]]));
    }
    // The home schema keeps no account's data.
    const [home] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.runs`;
    expect(home!.n).toBe(0);

    const port = await d.port();
    // The next scrape after the jobs: runs, jobs and the worker by account.
    const body = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(body).toMatch(/regwatch_runs\{account="alpha",kind="sync",status="ok"\} 1/);
    expect(body).toMatch(/regwatch_runs\{account="beta",kind="sync",status="ok"\} 1/);
    expect(body).toMatch(
      /regwatch_last_run_end_timestamp_seconds\{account="beta",kind="sync",status="ok"\} \d+/,
    );
    expect(body).toMatch(/regwatch_coverage_behind_days\{account="alpha"\} \d+/);
    expect(body).toMatch(/regwatch_jobs\{account="alpha",state="failed"\} 0/);
    expect(body).toMatch(/regwatch_worker_alive\{worker="[^"]+",host="[^"]+"\} 1/);
    expect(body).toMatch(
      /regwatch_coverage_lag_seconds\{account="beta",list_key="[^"]+",list_name="beta-list"\}/,
    );
    expect(body).not.toContain(KEYS.alpha);
    expect(await d.stop()).toMatchObject({ code: 0 });
    expect(JSON.stringify(d.lines)).not.toContain(KEYS.beta);
  });

  it("with --no-worker only asks: the jobs wait in the queue for a worker", async () => {
    t = await createTestDatabase();
    emulators.alpha.resetLog();
    const d = daemon(env(), ["--no-worker"]);
    await d.waitFor((l) => l.msg === "sync job asked for" && l.account === "beta");
    expect(await d.stop()).toMatchObject({ code: 0 });
    const keys = (await queuedJobs(t.db.sql)).map((j) => j.key).sort();
    expect(keys).toEqual([`alpha:sync:${slotDay(slot, "UTC")}`, `beta:sync:${slotDay(slot, "Asia/Tokyo")}`]);
    expect(emulators.alpha.requests()).toHaveLength(0);
    expect(d.lines.some((l) => l.msg === "job started")).toBe(false);
  });

  it("refuses --worker without an accounts file (64)", async () => {
    const r = await runCli(["daemon", "--worker"], { DATABASE_URL: "postgres://127.0.0.1:9/none" });
    expect(r.code).toBe(64);
    expect(r.stderr).toContain("REGWATCH_ACCOUNTS_FILE");
  });
});

describe("a fleet daemon stopped while its worker runs a job", () => {
  it("stops the worker first: exit 0 within --stop-timeout, the run partial, the job back in the queue", async () => {
    t = await createTestDatabase();
    // beta's changes requests hang for 8 s: its job is mid-window when the stop comes.
    emulators.beta.setFaults([
      { endpoint: "GET /v2/lists/:key/changes", kind: "delay", delayMs: 8000, probability: 1 },
    ]);
    try {
      const changesAsked = emulators.beta.nextArrival((r) => r.endpoint === "GET /v2/lists/:key/changes");
      const d = daemon(env(), ["--stop-timeout", "3"]);
      await changesAsked;
      const { code } = await d.stop();
      expect(code).toBe(0);
      const order = d.lines.map((l) => l.msg);
      expect(order.indexOf("worker stopped")).toBeGreaterThan(-1);
      expect(order.indexOf("worker stopped")).toBeLessThan(order.lastIndexOf("stopped"));
      const [run] = await t.db.sql.unsafe(`select status from regwatch_beta.runs where kind = 'sync'`);
      expect(run?.status).toBe("partial");
      const jobs = await queuedJobs(t.db.sql);
      expect(jobs.filter((j) => j.account === "beta").map((j) => [j.key, j.lockedBy])).toEqual([
        [`beta:sync:${slotDay(slot, "Asia/Tokyo")}`, null],
      ]);
    } finally {
      emulators.beta.setFaults([]);
    }
  });
});

describe("each account at its own time", () => {
  it("asks for an account's sync when its own schedule fires, not before, and the worker runs it", async () => {
    t = await createTestDatabase();
    // alpha's schedule fires a few seconds from now (a seconds field); its previous slot is done.
    const fire = new Date(Date.now() + 8000);
    fire.setUTCMilliseconds(0);
    const own = writeAccountsFile([
      {
        name: "beta",
        watch_url: emulators.beta.url,
        api_key_env: "BETA_KEY",
        schedule: betaSchedule,
        timezone: "Asia/Tokyo",
      },
      {
        name: "alpha",
        watch_url: emulators.alpha.url,
        api_key_env: "ALPHA_KEY",
        schedule: `${fire.getUTCSeconds()} ${fire.getUTCMinutes()} ${fire.getUTCHours()} * * *`,
        timezone: "UTC",
      },
    ]);
    try {
      await prepareFleet(t.url, ["alpha"]);
      await t.db.sql`
        insert into regwatch_alpha.runs (kind, trigger, status, started_at, finished_at)
        values ('sync', 'schedule', 'ok', ${new Date(Date.now() - 120_000)}, ${new Date(Date.now() - 60_000)})`;
      const d = daemon({ ...env(), REGWATCH_ACCOUNTS_FILE: own.accountsFile }, ["--check-every", "1"]);
      const asked = (a: string) => (l: LogLine) => l.msg === "sync job asked for" && l.account === a;
      await d.waitFor(finished("beta"));
      const alpha = await d.waitFor(asked("alpha"));
      expect(alpha.day).toBe(slotDay(fire, "UTC"));
      // Never asked for before its slot, whatever the checks in between said.
      expect(d.lines.filter(asked("alpha")).every((l) => Date.parse(String(l.time)) >= fire.getTime())).toBe(
        true,
      );
      await d.waitFor(finished("alpha"));
      const runs = await t.db.sql`select status from regwatch_alpha.runs where kind = 'sync' order by id`;
      expect(runs.map((r) => r.status)).toEqual(["ok", "ok"]);
    } finally {
      own.remove();
    }
  });
});

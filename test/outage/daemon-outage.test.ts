/**
 * Issue 26: the daemon and a Postgres stopped with `pg_ctl -m fast` in the middle of its run's file
 * phase. The job ends with the database named, /readyz answers 503 while the database is away, the
 * run is recorded failed as soon as it is back and the next run starts then (not after the
 * 15-minute backoff, nor after the 30 s lease the failed run could not give back), and SIGTERM
 * during an outage ends the daemon within --stop-timeout (before, the job never ended, /readyz
 * said ready, and a first SIGTERM did not end the process).
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LogLine, scheduleTwoHoursAgo, startDaemon } from "../daemon/harness.ts";
import {
  changesAnswer,
  type HostileRegistry,
  hostileEnv,
  item,
  startHostileRegistry,
} from "../helpers/hostile-registry.ts";
import { waitUntil } from "../helpers/wait.ts";
import { clusterUnavailable, type PrivateCluster, startPrivateCluster } from "./private-cluster.ts";
import { startTrickleFiles, type TrickleFiles } from "./trickle-files.ts";

const unavailable = await clusterUnavailable();
if (unavailable) process.stderr.write(`[test] ${unavailable}\n`);

const RUN_START = /^(catching up a missed run|retrying an incomplete run|scheduled run starting)/;

describe.skipIf(unavailable !== undefined)("the daemon when Postgres stops during a run", () => {
  let cluster: PrivateCluster;
  let registry: HostileRegistry;
  let files: TrickleFiles;
  beforeAll(async () => {
    cluster = await startPrivateCluster();
    files = await startTrickleFiles();
    registry = await startHostileRegistry({
      lists: [{ list_key: "wl_out", list_name: "outage", created_at: "2024-03-01" }],
    });
    const items = Array.from({ length: 30 }, (_, i) =>
      item(files.url, String(10_000_000 + i * 1111), "2024-03-02"),
    );
    registry.set({ changes: (q) => changesAnswer(q.from, q.to, q.from === "2024-03-01" ? items : []) });
  }, 120_000);
  afterAll(async () => {
    await registry?.close();
    await files?.close();
    await cluster?.destroy();
  });

  it("ends the job, answers 503, runs again once the database is back, and stops on SIGTERM", async ({
    onTestFailed,
  }) => {
    let step = "starting the daemon";
    const daemon = startDaemon(
      {
        ...hostileEnv(registry, {
          REGWATCH_FILE_ORIGINS: `${registry.url},${files.url}`,
          REGWATCH_CONCURRENCY: "2",
          REGWATCH_REQUEST_TIMEOUT_MS: "5000",
        }),
        DATABASE_URL: cluster.url,
        REGWATCH_SCHEDULE: scheduleTwoHoursAgo().schedule,
        REGWATCH_TZ: "UTC",
        REGWATCH_LOG_LEVEL: "debug",
      },
      ["--check-every", "1", "--stop-timeout", "3"],
    );
    // A failure (a timeout above all) names the step it stopped in and shows what the daemon said.
    onTestFailed(() => {
      const tail = daemon.lines.slice(-40).map((l) => JSON.stringify(l));
      process.stderr.write(
        `[daemon-outage] stopped while ${step}; the daemon's last lines:\n${tail.join("\n")}\n`,
      );
    });
    try {
      const port = await daemon.port();
      const readyz = async () => {
        const response = await fetch(`http://127.0.0.1:${port}/readyz`);
        return { status: response.status, body: await response.text() };
      };
      step = "waiting for a file request";
      await waitUntil(() => files.requests() > 0, { what: "a file request", process: daemon.child });
      const seenBefore = files.requests();
      step = "stopping Postgres";
      await cluster.fastStop();

      step = "waiting for the job to end";
      const ended = await daemon.waitFor((l) => /^job (finished|failed)$/.test(l.msg));
      expect(String(ended.err)).toMatch(/database/);
      const during = await readyz();
      expect(during.status).toBe(503);
      expect(during.body).toMatch(/database/);

      step = "starting Postgres again";
      await cluster.start();
      step = "waiting for the next run";
      // The next check after the database answers: no 15-minute backoff.
      const starts = (lines: LogLine[]) => lines.filter((l) => RUN_START.test(l.msg)).length;
      await waitUntil(() => starts(daemon.lines) >= 2, { what: "the next run", process: daemon.child });
      // Nor after its own lease's expiry: the lease its release could not give back is given back then.
      expect(daemon.lines.filter((l) => l.msg === "run skipped: lock held")).toEqual([]);
      const sql = postgres(cluster.url, {
        max: 1,
        onnotice: () => {},
        connection: { search_path: "regwatch" },
      });
      try {
        const [first] = await sql`
          select status, error from regwatch.runs where kind = 'sync' order by id limit 1`;
        expect(first!.status).toBe("failed");
        expect(first!.error).toMatch(/^database problem: /);
      } finally {
        await sql.end();
      }

      // Again in the middle of a run's files, and a stop while the database is away.
      step = "waiting for files again";
      await waitUntil(() => files.requests() > seenBefore, { what: "files again", process: daemon.child });
      step = "stopping Postgres a second time";
      await cluster.fastStop();
      step = "waiting for the daemon to exit after SIGTERM";
      const { code } = await daemon.stop();
      expect(code === 0 || code === 1).toBe(true);
      expect(daemon.lines.some((l) => l.msg === "stopped")).toBe(true);
    } finally {
      if (daemon.child.exitCode === null) daemon.child.kill("SIGKILL");
    }
  }, 120_000);
});

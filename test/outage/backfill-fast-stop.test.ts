/**
 * Issue 48, point 7: Postgres stopped with `pg_ctl -m fast` while `backfill` fetches files. The
 * command never exits 0 then: it ends with exit 1 and the database's message. Before, in most tries
 * it exited 0 with no summary: each failed reconnect left a connection of the pool "connecting"
 * for good (src/db/socket.ts, failedSocket), a query queued behind them never settled, and Node,
 * its event loop drained, ended the process; cron or systemd read that as success. Sixteen files
 * at once make the reconnects many. Three rounds, each on a fresh database, catch a flaky 0.
 */
import { spawn } from "node:child_process";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, localDateTime } from "../../src/dates.ts";
import { runMigrations } from "../../src/db/migrate.ts";
import { childBaseEnv } from "../helpers/child-env.ts";
import { BIN } from "../helpers/cli.ts";
import { type EmulatorProcess, startEmulatorProcess } from "../helpers/emulator-process.ts";
import { waitUntil } from "../helpers/wait.ts";
import { clusterUnavailable, type PrivateCluster, startPrivateCluster } from "./private-cluster.ts";

const TZ = "Europe/Budapest";
const unavailable = await clusterUnavailable();
if (unavailable) process.stderr.write(`[test] ${unavailable}\n`);

describe.skipIf(unavailable !== undefined)("a fast stop of Postgres while backfill writes", () => {
  let cluster: PrivateCluster;
  let emulator: EmulatorProcess;
  const today = localDateTime(new Date(), TZ).date;
  const range = ["--from", addDays(today, -60), "--to", addDays(today, -3)];

  beforeAll(async () => {
    cluster = await startPrivateCluster();
    emulator = await startEmulatorProcess(["--seed", "48", "--businesses", "3000", "--rate-limit", "1000"]);
    const records = await emulator.admin<{ tax_id: string; type: string }[]>("businesses?limit=400");
    const ids = records.filter((r) => r.type !== "budget_orgs").map((r) => r.tax_id);
    for (const [i, name] of ["one", "two", "three", "four"].entries())
      await emulator.admin("lists", {
        name,
        createdAt: addDays(today, -65),
        taxIds: ids.slice(i * 40, i * 40 + 60),
      });
  }, 120_000);
  afterAll(async () => {
    await emulator?.stop();
    await cluster?.destroy();
  });

  /** A fresh migrated database of the cluster, so every round has the whole backfill before it. */
  async function freshDatabase(round: number): Promise<string> {
    const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(`create database backfill_${round}`);
    } finally {
      await admin.end();
    }
    const url = new URL(cluster.url);
    url.pathname = `/backfill_${round}`;
    await runMigrations(url.href);
    return url.href;
  }

  for (const round of [1, 2, 3]) {
    it(`round ${round}: exits non-zero with the database's message, never 0`, async () => {
      if (round > 1) await cluster.start();
      const url = await freshDatabase(round);
      const child = spawn(process.execPath, [BIN, "backfill", ...range], {
        env: {
          ...childBaseEnv(),
          REGWATCH_LOG_LEVEL: "warn",
          DATABASE_URL: url,
          REGWATCH_WATCH_URL: emulator.url,
          REGWATCH_API_KEY: emulator.apiKey,
          REGWATCH_FILE_ORIGINS: emulator.fileOrigins,
          REGWATCH_TZ: TZ,
          REGWATCH_RATE_LIMIT: "1000",
          REGWATCH_CONCURRENCY: "16",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c: Buffer) => {
        stdout += c;
      });
      child.stderr.on("data", (c: Buffer) => {
        stderr += c;
      });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      // Stopped once the backfill has written 50 change files: its file phase is in full flow.
      const watch = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await waitUntil(
          async () => {
            const [row] = await watch<{ n: number }[]>`
              select count(*)::int as n from regwatch.change_files where status <> 'pending'`;
            return (row?.n ?? 0) >= 50;
          },
          { what: "fetched change files", process: child },
        );
      } finally {
        await watch.end();
      }
      await cluster.fastStop();
      const code = await exited;
      const said = JSON.stringify({ code, stdout, stderr });
      expect(code, said).not.toBe(0);
      expect(code, said).toBe(1);
      expect(stderr, said).toMatch(/^regwatch: database problem: /m);
      expect(stderr, said).not.toMatch(/\n\s+at /);
    }, 120_000);
  }
});

/**
 * Issue 26: Postgres stopped with `pg_ctl -m fast` while `sync` is in its file phase. The command
 * ends within the request timeout with one message naming the database problem and exit 1 (it
 * used to hang about five minutes, then exit 13 with no message), and its run row, left `running`
 * by a process that could not reach the database, is marked failed once the database is back.
 */
import { spawn } from "node:child_process";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scopedSql } from "../../src/db/scoped-sql.ts";
import { acquireRunLock } from "../../src/run/lock.ts";
import { childBaseEnv } from "../helpers/child-env.ts";
import { BIN } from "../helpers/cli.ts";
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

describe.skipIf(unavailable !== undefined)("a fast stop of Postgres during the file phase", () => {
  let cluster: PrivateCluster;
  let registry: HostileRegistry;
  let files: TrickleFiles;
  beforeAll(async () => {
    cluster = await startPrivateCluster();
    files = await startTrickleFiles();
    const filesUrl = files.url;
    registry = await startHostileRegistry({
      lists: [{ list_key: "wl_out", list_name: "outage", created_at: "2024-03-01" }],
    });
    const items = Array.from({ length: 30 }, (_, i) =>
      item(filesUrl, String(10_000_000 + i * 1111), "2024-03-02"),
    );
    registry.set({
      changes: (q) => changesAnswer(q.from, q.to, q.from === "2024-03-01" ? items : []),
    });
  }, 120_000);
  afterAll(async () => {
    await registry?.close();
    await files?.close();
    await cluster?.destroy();
  });

  /** `regwatch sync` until its first file request, then a fast stop; its exit code and stderr. */
  async function syncThroughFastStop(
    requestTimeoutMs: string,
  ): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [BIN, "sync"], {
      env: {
        ...childBaseEnv(),
        REGWATCH_LOG_LEVEL: "warn",
        ...hostileEnv(registry, {
          REGWATCH_REQUEST_TIMEOUT_MS: requestTimeoutMs,
          REGWATCH_CONCURRENCY: "2",
          REGWATCH_FILE_ORIGINS: `${registry.url},${files.url}`,
        }),
        DATABASE_URL: cluster.url,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr += c;
    });
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const before = files.requests();
    await waitUntil(() => files.requests() > before, { what: "a file request", process: child }).catch(
      (e) => {
        throw new Error(`${e.message}: ${stderr}`);
      },
    );
    await cluster.fastStop();
    // Bounded by the test's timeout: before, the process could hang (up to the request timeout
    // and beyond, then exit 13) or crash with a stack trace.
    return { code: await exited, stderr };
  }

  /** Exactly one line about the outage: no stack trace, no log line from cleanups that could only fail. */
  function expectOneMessage(stderr: string): void {
    expect(stderr).not.toMatch(/\n\s+at /);
    const lines = stderr
      .trim()
      .split("\n")
      .filter((l) => !l.startsWith("progress:"));
    expect(lines, JSON.stringify(stderr)).toHaveLength(1);
    expect(lines[0]).toMatch(/^regwatch: database problem: /);
  }

  it("ends sync with exit 1 and one message; the run row is failed once the database is back", async () => {
    const { code, stderr } = await syncThroughFastStop("5000");
    expectOneMessage(stderr);
    expect(code).toBe(1);

    await cluster.start();
    // The next process to take the run lock marks the row the lost process could not finish.
    const sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
    try {
      // The lost process could not give its lease back; it ends within 30 s of its last renewal,
      // ended here in the database instead of waited for.
      await sql`update regwatch.run_lease set expires_at = clock_timestamp() - interval '1 second'`;
      const lock = await acquireRunLock(scopedSql(sql, "regwatch"));
      await lock.release();
      const [run] = await sql`
        select status, error from regwatch.runs where kind = 'sync' order by id limit 1`;
      expect(run!.status).toBe("failed");
    } finally {
      await sql.end();
    }
  }, 60_000);

  it("ends at once while a file request hangs, long before its request timeout", async () => {
    await cluster.start();
    // The open files of the run the first case cut short are asked again, and get no answer.
    files.hang();
    const { code, stderr } = await syncThroughFastStop("600000");
    expectOneMessage(stderr);
    expect(code).toBe(1);
  }, 60_000);
});

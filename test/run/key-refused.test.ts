/**
 * A refused key stops the run at once (issue 37, point 2). A hostile registry answers the first
 * N requests and 401 to everything after; it counts the requests it answered after its first 401
 * and how many were in flight then. A backfill through the CLI exits 1 naming the key variable
 * (never the key) with at most the requests in flight answered after the refusal; a worker records
 * the refusal, does not retry the job, runs no job of the account with the same key that day,
 * and says why (log, status --fleet, doctor); another key in the variable lets the next job run.
 */
import type { ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnWorker, type WorkerProcess, writeAccountsFile } from "../fleet/fleet-helpers.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HostileServer, type SeenRequest, startHostileServer } from "../helpers/hostile-server.ts";
import { waitUntil } from "../helpers/wait.ts";

const KEY = "rk_live_refused-key-0123456789";
const LISTS = ["wl_a", "wl_b"];

interface Tally {
  answered: number;
  /** Requests answered after the first 401 was written. */
  afterRefusal: number;
  /** Requests received and not yet answered when the first 401 was written. */
  inFlightAtRefusal: number;
  refused: boolean;
}

/** Answers `okCount` requests as a registry would (after a short delay), then 401 to everything. */
function refusingRegistry(server: HostileServer, okCount: number): Tally {
  const tally: Tally = { answered: 0, afterRefusal: 0, inFlightAtRefusal: 0, refused: false };
  let received = 0;
  server.answer = async (req: SeenRequest, res: ServerResponse) => {
    received++;
    await new Promise((r) => setTimeout(r, 150));
    if (tally.refused) tally.afterRefusal++;
    if (tally.answered >= okCount) {
      if (!tally.refused) {
        tally.refused = true;
        tally.inFlightAtRefusal = received - tally.answered - 1;
      }
      tally.answered++;
      res.writeHead(401, { "content-type": "application/json" });
      res.end('{"message":"invalid API key"}');
      return;
    }
    tally.answered++;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(answerFor(req, server.origin)));
  };
  return tally;
}

function answerFor(req: SeenRequest, origin: string): unknown {
  if (req.path === "/v2/lists")
    return {
      watch_lists: LISTS.map((k) => ({
        list_key: k,
        list_name: k,
        created_at: "2024-01-01",
        watch_count: 2,
      })),
    };
  if (req.path.endsWith("/items")) return { watched_items: [] };
  const changes = /^\/v2\/lists\/([^/]+)\/changes$/.exec(req.path);
  if (changes) {
    const start = req.query.get("start_date")!;
    const end = req.query.get("end_date")!;
    // Many files per window, so the file phase has plenty to ask for once the key is refused.
    const items = Array.from({ length: 20 }, (_, i) => ({
      change: start,
      tax_id: String(10000000 + i),
      chapter: "2",
      changed_headings: ["name"],
      path: `${origin}/files/${changes[1]}/${start}/${i}.json`,
    }));
    return { start_date: start, end_date: end, changed_items: items };
  }
  return {};
}

describe("a refused key", () => {
  let server: HostileServer;
  const databases: TestDatabase[] = [];
  const workers: WorkerProcess[] = [];
  beforeAll(async () => {
    server = await startHostileServer();
  });
  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill("SIGKILL");
    await Promise.all(workers.map((w) => w.exited));
    await server?.close();
    for (const t of databases) await t.drop();
  });

  const common = () => ({
    REGWATCH_TZ: "Europe/Budapest",
    REGWATCH_RATE_LIMIT: "30",
    REGWATCH_CONCURRENCY: "2",
    REGWATCH_MAX_ATTEMPTS: "2",
    REGWATCH_RETRY_BASE_MS: "10",
  });

  it("stops a CLI backfill at once: exit 1 naming REGWATCH_API_KEY, only requests in flight answered after", async () => {
    const t = await createTestDatabase();
    databases.push(t);
    server.seen.length = 0;
    const tally = refusingRegistry(server, 40);
    const result = await runCli(
      ["backfill", "--from", "2024-01-01", "--to", "2024-06-30"],
      {
        ...common(),
        DATABASE_URL: t.url,
        REGWATCH_WATCH_URL: server.origin,
        REGWATCH_API_KEY: KEY,
      },
      120_000,
    );
    const output = result.stdout + result.stderr;
    expect(result.code, output).toBe(1);
    expect(output).toMatch(/the registry refused the key in REGWATCH_API_KEY/);
    expect(output).not.toContain(KEY);
    expect(tally.refused).toBe(true);
    expect(tally.afterRefusal).toBeLessThanOrEqual(Math.max(tally.inFlightAtRefusal, 0));
    expect(tally.afterRefusal).toBeLessThanOrEqual(10);
    // No change file was marked failed for the key's refusal: they stay to fetch with a good key.
    const [files] = await t.db.sql<{ failed: number }[]>`
      select count(*) filter (where status = 'failed')::int as failed from regwatch.change_files`;
    expect(files?.failed).toBe(0);
  });

  it("makes a worker stop the job, not retry it, hold the account's jobs that day, and say why", async () => {
    const t = await createTestDatabase();
    databases.push(t);
    server.seen.length = 0;
    const tally = refusingRegistry(server, 40);
    const file = writeAccountsFile([{ name: "acme", watch_url: server.origin, api_key_env: "ACME_API_KEY" }]);
    const env = { ...common(), DATABASE_URL: t.url, REGWATCH_ACCOUNTS_FILE: file, ACME_API_KEY: KEY };
    expect((await runCli(["migrate"], env)).code).toBe(0);
    const enqueued = await runCli(
      ["enqueue", "backfill", "--account", "acme", "--from", "2024-01-01", "--to", "2024-06-30"],
      env,
    );
    expect(enqueued.code, enqueued.stderr).toBe(0);
    const worker = spawnWorker(["--concurrency", "1"], env);
    workers.push(worker);
    const stopped = await waitUntil(
      () => worker.lines.find((l) => String(l.msg).startsWith("job stopped: the registry refused the key")),
      { what: "the job stopped on the refusal", process: worker.child, everyMs: 100 },
    );
    expect(String(stopped.msg)).toContain("ACME_API_KEY holds another key or the next day's slot");
    expect(tally.afterRefusal).toBeLessThanOrEqual(Math.max(tally.inFlightAtRefusal, 0));
    expect(tally.afterRefusal).toBeLessThanOrEqual(10);
    const seenAtRefusal = server.seen.length;

    // Not retried: the queue holds no job of the account any more, and the registry hears nothing.
    const [left] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from graphile_worker.jobs`;
    expect(left?.n).toBe(0);
    const [row] = await t.db.sql<{ key_variable: string; key_fingerprint: string; http_status: number }[]>`
      select key_variable, key_fingerprint, http_status from regwatch_acme.key_refusals`;
    expect(row).toMatchObject({ key_variable: "ACME_API_KEY", http_status: 401 });
    expect(row!.key_fingerprint).not.toContain(KEY);

    // Asked again the same day with the same key: the job is not run, and says why.
    await runCli(["enqueue", "reconcile", "--account", "acme"], env);
    const held = await waitUntil(
      () =>
        worker.lines.find((l) =>
          String(l.msg).startsWith("job not run: the registry refused the key in ACME_API_KEY"),
        ),
      { what: "the next job held back", process: worker.child, everyMs: 100 },
    );
    expect(String(held.msg)).toContain("wait until ACME_API_KEY holds another key");
    expect(server.seen.length).toBe(seenAtRefusal);

    const status = await runCli(["status", "--fleet"], env);
    expect(status.stdout).toMatch(
      /Keys refused\n {2}acme: the registry refused the key in ACME_API_KEY \(GET \S+ answered 401\)/,
    );
    expect(status.stdout).toContain("the account's jobs wait until ACME_API_KEY holds another key");
    const doctor = await runCli(["doctor", "--account", "acme", "--json"], { ...env, ACME_API_KEY: KEY });
    const line = (
      JSON.parse(doctor.stdout) as { checks: { check: string; status: string; message: string }[] }
    ).checks.find((r) => r.check === "key refusal");
    expect(line).toMatchObject({ status: "fail" });
    expect(line!.message).toContain("the registry refused the key in ACME_API_KEY");
    for (const out of [worker.output(), status.stdout, status.stderr, doctor.stdout, doctor.stderr])
      expect(out).not.toContain(KEY);
    worker.child.kill("SIGTERM");
    await worker.exited;

    // Another key in the variable: status says the next job tries it, and a worker runs the job.
    const changed = await runCli(["status", "--fleet"], { ...env, ACME_API_KEY: "another-key-0123456789" });
    expect(changed.stdout).toContain("ACME_API_KEY now holds another key, which the next job tries");
    server.seen.length = 0;
    const next = spawnWorker(["--concurrency", "1"], { ...env, ACME_API_KEY: "another-key-0123456789" });
    workers.push(next);
    await runCli(["enqueue", "reconcile", "--account", "acme"], env);
    await waitUntil(
      () => next.lines.find((l) => l.msg === "job started" || String(l.msg).startsWith("job stopped")),
      {
        what: "the job run with the new key",
        process: next.child,
        everyMs: 100,
      },
    );
    await waitUntil(() => (server.seen.length > 0 ? true : undefined), { what: "a request", everyMs: 100 });
    expect(server.seen.every((r) => r.headers["x-api-key"] === "another-key-0123456789")).toBe(true);
    next.child.kill("SIGTERM");
    await next.exited;
  });
});

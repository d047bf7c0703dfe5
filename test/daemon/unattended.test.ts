/**
 * The daemon left alone with a registry that misbehaves: one list's changes answer echoes the key
 * in its error body, another's never answers. The daemon must say it is stuck on /readyz, keep the
 * key out of /metrics, stop within its bound on SIGTERM, and leave nothing with the key behind.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  changesAnswer,
  HOSTILE_KEY,
  type HostileRegistry,
  hostileEnv,
  item,
  json,
  startHostileRegistry,
} from "../helpers/hostile-registry.ts";
import { schemaText } from "../helpers/schema-text.ts";
import { waitUntil } from "../helpers/wait.ts";
import { scheduleTwoHoursAgo, startDaemon } from "./harness.ts";

const ECHO = "wl_echo";
const HANG = "wl_hang";
const GOOD = "wl_good";

describe("a daemon against a registry that echoes the key and hangs", () => {
  let registry: HostileRegistry;
  let t: TestDatabase;

  beforeAll(async () => {
    t = await createTestDatabase();
    registry = await startHostileRegistry({
      lists: [
        { list_key: GOOD, list_name: "good", created_at: "2024-03-08" },
        { list_key: ECHO, list_name: "echo", created_at: "2024-03-08" },
        { list_key: HANG, list_name: "hang", created_at: "2024-03-08" },
      ],
      changes: (q) => {
        if (q.listKey === ECHO) return json({ error: `key ${q.apiKey} is not valid for this list` }, 404);
        if (q.listKey === HANG) return { hang: true };
        return changesAnswer(q.from, q.to, [item(registry.url, "11111111", "2024-03-08")]);
      },
      // 400, not 403: a file origin's 401/403 is a refused key, which ends the run at once.
      file: (path, request) => ({
        status: 400,
        headers: { "content-type": "text/html" },
        body: `<h1>Forbidden</h1> ${path} key=${String(request.headers["x-api-key"] ?? "")}`,
      }),
    });
  });
  afterAll(async () => {
    await registry?.close();
    await t?.drop().catch(() => {});
  });

  it("/readyz says stuck, /metrics and every sink stay free of the key, SIGTERM ends the run partial", async () => {
    const { schedule } = scheduleTwoHoursAgo();
    const env = {
      ...hostileEnv(registry),
      DATABASE_URL: t.url,
      REGWATCH_SCHEDULE: schedule,
      REGWATCH_TZ: "UTC",
      REGWATCH_LOG_LEVEL: "debug",
      // The hanging window is cut only by the stop, not by the request timeout.
      REGWATCH_REQUEST_TIMEOUT_MS: "600000",
    };
    const d = startDaemon(env, ["--stuck-after", "1", "--stop-timeout", "10"]);
    const base = `http://127.0.0.1:${await d.port()}`;

    // The echoing window fails at once; the hanging one keeps the job busy with no progress.
    await waitUntil(() => registry.asked.some((a) => a.listKey === HANG), {
      what: "the hanging window asked",
      process: d.child,
    });
    await waitUntil(async () => (await fetch(`${base}/readyz`)).status === 503, {
      what: "/readyz saying stuck",
      process: d.child,
      everyMs: 100,
    });
    const ready = await fetch(`${base}/readyz`);
    expect(await ready.text()).toMatch(/no progress/);

    const metrics = await (await fetch(`${base}/metrics`)).text();
    expect(metrics).toMatch(/^regwatch_requests_total\{/m);
    expect(metrics).not.toContain(HOSTILE_KEY);

    const stopped = await d.stop();
    expect(stopped.code).toBe(0);
    const log = d.lines.map((l) => JSON.stringify(l)).join("\n");
    expect(log).not.toContain(HOSTILE_KEY);
    expect(log).toContain("[redacted]");

    const sql = postgres(t.url, { max: 1, onnotice: () => {}, connection: { search_path: "regwatch" } });
    try {
      const runs = await sql<{ kind: string; status: string }[]>`
        select kind, status from regwatch.runs where kind = 'sync' order by id`;
      expect(runs.map((r) => r.status)).toEqual(["partial"]);
      const covered = await sql<{ list_key: string }[]>`select distinct list_key from regwatch.coverage`;
      expect(covered.map((c) => c.list_key)).toEqual([GOOD]);
    } finally {
      await sql.end();
    }

    for (const args of [["status"], ["status", "--json"], ["changes", "--since", "2024-03-01", "--json"]]) {
      const out = await runCli(args, { ...env, REGWATCH_LOG_LEVEL: "debug" });
      expect(out.code, `${args.join(" ")}: ${out.stderr}`).toBe(0);
      expect(out.stdout + out.stderr).not.toContain(HOSTILE_KEY);
    }
    const stored = await schemaText(t.db.sql);
    expect(stored).toContain("[redacted]");
    expect(stored).not.toContain(HOSTILE_KEY);
  }, 180_000);
});

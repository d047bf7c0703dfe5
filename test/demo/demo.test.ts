/**
 * `npm run demo` as a user runs it: a fresh data directory, the embedded Postgres, the emulator
 * in-process. Twice, since the second run must work with the data already there.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childBaseEnv } from "../helpers/child-env.ts";
import { BIN, type CliResult, runProcess } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

async function npmRunDemo(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<CliResult & { ms: number }> {
  const started = Date.now();
  const result = await runProcess(
    "npm",
    ["run", "--silent", "demo"],
    { REGWATCH_DATA_DIR: dataDir, ...env },
    120_000,
    ROOT,
  );
  return { ...result, ms: Date.now() - started };
}

describe("npm run demo", () => {
  let base: string;
  let users: TestDatabase;
  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), "regwatch-demo-"));
    await chmod(base, 0o755); // the embedded server runs as user postgres
    users = await createTestDatabase();
  });
  afterAll(async () => {
    if (base) await rm(base, { recursive: true, force: true });
    await users?.drop();
  });

  it("runs end to end in a fresh data directory, and again over its own data", async () => {
    const dataDir = path.join(base, "data");
    // The user's own database is configured, and the demo must leave it alone.
    const first = await npmRunDemo(dataDir, { DATABASE_URL: users.url });
    expect(first.stdout).toContain("DATABASE_URL is ignored");
    const leaked = await users.db.sql`select list_name from regwatch.desired_lists`;
    expect(leaked).toEqual([]);
    const [runs] = await users.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.runs`;
    expect(runs?.n).toBe(0);
    expect(first.stderr.replace(/^npm warn .*\n/gm, "")).toBe("");
    expect(first.code).toBe(0);
    console.log(`demo, fresh data directory: ${first.ms} ms`);
    expect(first.stdout).toMatch(/Reconcile: applied; 1 list\(s\) created/);
    const written = [
      ...first.stdout.matchAll(/Backfill of demo-\w+ from [\d-]+: ok; .* (\d+) changes written/g),
    ];
    expect(written).toHaveLength(2);
    expect(written.every((m) => Number(m[1]) > 0)).toBe(true);
    expect(first.stdout).toMatch(/demo-suppliers\s+[ #]+/);
    expect(first.stdout).toMatch(/covered \d{4}-\d{2}-\d{2} \.\. \d{4}-\d{2}-\d{2}, \d+ days, 0 gap days/);
    expect(first.stdout).toMatch(/refused 422: 1/);
    expect(first.stdout).toMatch(/refused 404: 2/);
    expect(first.stdout).toMatch(/Change files: [1-9]\d* fetched, 0 pending/);
    // The server stops with the demo, so no psql line points at it: only how to keep it.
    expect(first.stdout).not.toMatch(/psql -h|PGPASSWORD/);
    expect(first.stdout).toContain("regwatch demo --keep");
    expect(existsSync(path.join(dataDir, "demo", "pg", "postmaster.pid"))).toBe(false);

    const second = await npmRunDemo(dataDir);
    expect(second.code).toBe(0);
    console.log(`demo, second run: ${second.ms} ms`);
    expect(second.stdout).toMatch(/Backfill of demo-suppliers from [\d-]+: ok; 0 windows/);
    expect(second.stdout).toMatch(/Change files: [1-9]\d* fetched, 0 pending/);
  }, 300_000); // two demos and a fresh embedded Postgres, on a shared machine

  it("with --keep, --port and --pg-port: its own ports, a psql line for the server it keeps, until Ctrl-C", async () => {
    const dataDir = path.join(base, "kept");
    const [port, pgPort] = [await freePort(), await freePort()];
    const child = spawn(
      process.execPath,
      [BIN, "demo", "--keep", "--port", String(port), "--pg-port", String(pgPort)],
      {
        env: { ...childBaseEnv(), REGWATCH_DATA_DIR: dataDir },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    // Waits for the line, or fails at once with what it printed if the demo ends before it.
    await new Promise<void>((resolve, reject) => {
      const look = () => {
        if (out.includes("stays up until Ctrl-C")) resolve();
      };
      child.stdout.on("data", look);
      child.stderr.on("data", look);
      void exited.then((code) => reject(new Error(`the demo exited (${code}) before it stayed up:\n${out}`)));
    });
    expect(out).toContain(`Emulator (seed 2024) on http://127.0.0.1:${port}`);
    expect(out).toContain(`psql -h 127.0.0.1 -p ${pgPort} -U postgres postgres`);
    expect(out).toContain(path.join(dataDir, "demo", "embedded.json"));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
  }, 300_000);
});

/** A loopback port that nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

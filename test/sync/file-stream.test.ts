/**
 * The file phase against a hostile file server, over real HTTP into a real database: a transfer
 * cut halfway is tried again and stored whole, leaving nothing staged; a body above
 * REGWATCH_MAX_FILE_BYTES, declared or not, fails alone with its reason; a body that arrives
 * slowly is stored (it once hung its job for good, see the last test).
 */
import { createHash } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createRegistry, type RegistryClients } from "../../src/api/registry.ts";
import { loadConfig, requireWatch } from "../../src/config.ts";
import type { Sql } from "../../src/db/connect.ts";
import { scopedSql } from "../../src/db/scoped-sql.ts";
import { createLogger } from "../../src/logger.ts";
import { fetchOpenFiles } from "../../src/sync/file-fetch.ts";
import { noProgress } from "../../src/sync/progress.ts";
import { saveStreamedFile } from "../../src/sync/sql/files.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HostileServer, startHostileServer } from "../helpers/hostile-server.ts";

let test: TestDatabase;
let server: HostileServer;
let registry: RegistryClients;
/** The file phase's own single connection, so its session's temporary staging table can be inspected. */
let phase: Sql;
const MAX_FILE_BYTES = 4096;

beforeAll(async () => {
  [test, server] = await Promise.all([createTestDatabase(), startHostileServer()]);
  const config = loadConfig({
    REGWATCH_WATCH_URL: server.origin,
    REGWATCH_API_KEY: "file-stream-key",
    REGWATCH_MAX_FILE_BYTES: String(MAX_FILE_BYTES),
    REGWATCH_MAX_ATTEMPTS: "3",
    REGWATCH_RETRY_BASE_MS: "1",
  });
  requireWatch(config);
  registry = createRegistry(config, { log: createLogger({ level: "silent" }) });
  phase = scopedSql(
    postgres(test.url, {
      max: 1,
      onnotice: () => {},
    }),
    "regwatch",
  );
});
afterAll(async () => {
  await registry?.close();
  await phase?.end();
  await server?.close();
  await test?.drop();
});
beforeEach(async () => {
  await test.db.sql`truncate regwatch.change_files`;
  server.seen.length = 0;
});

function body(entries: number): Buffer {
  const changes = Array.from({ length: entries }, (_, i) => ({
    heading: `h${i}`,
    old_value: "a",
    new_value: "b",
  }));
  return Buffer.from(JSON.stringify({ tax_id: "12345678", changes }));
}

async function fetchAll(paths: string[]) {
  for (const path of paths) await test.db.sql`insert into regwatch.change_files (path) values (${path})`;
  return fetchOpenFiles({
    sql: phase,
    fetchFile: (path, consume, signal) => registry.streamFile(path, consume, signal),
    concurrency: 2,
    progress: noProgress,
  });
}

/**
 * Bytes left staged: the staging table is temporary, so it is read on the one connection the
 * file phase used (a non-temporary one of that name must not exist at all).
 */
async function stagedRows(): Promise<number> {
  const [shared] = await test.db.sql<{ n: number }[]>`
    select count(*)::int as n from pg_class where relname = 'regwatch_file_chunks' and relpersistence <> 't'`;
  const [temp] = await phase<
    { n: number }[]
  >`select to_regclass('pg_temp.regwatch_file_chunks') is not null as n`;
  const [staged] = temp!.n
    ? await phase<{ n: number }[]>`select count(*)::int as n from regwatch_file_chunks`
    : [{ n: 0 }];
  return shared!.n + staged!.n;
}

describe("streaming change files into the database", () => {
  it("tries again a transfer cut halfway and stores the whole body once", async () => {
    const whole = body(40);
    let cut = 0;
    server.answer = (_req, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": whole.length });
      if (cut++ === 0) {
        // Half the body, then the connection is gone.
        res.write(whole.subarray(0, whole.length >> 1), () => res.socket?.destroy());
        return;
      }
      res.end(whole);
    };
    const stats = await fetchAll(["/files/cut.json"]);
    expect(stats).toMatchObject({ fetched: 1, failed: 0 });
    expect(server.seen.length).toBe(2);
    const [row] = await test.db.sql<
      { status: string; size: number; sha256: string; changes: number; attempts: number }[]
    >`select status, size_bytes::int as size, sha256, jsonb_array_length(body_json->'changes') as changes, attempts
      from regwatch.change_files where path = '/files/cut.json'`;
    expect(row).toEqual({
      status: "fetched",
      size: whole.length,
      sha256: createHash("sha256").update(whole).digest("hex"),
      changes: 40,
      attempts: 1,
    });
    expect(await stagedRows()).toBe(0);
  });

  it("a transfer cut every time fails alone, with nothing stored and nothing staged", async () => {
    const whole = body(40);
    const good = body(2);
    server.answer = (req, res) => {
      if (req.path.endsWith("good.json")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(good);
        return;
      }
      res.writeHead(200, { "content-type": "application/json", "content-length": whole.length });
      res.write(whole.subarray(0, whole.length >> 1), () => res.socket?.destroy());
    };
    const stats = await fetchAll(["/files/always-cut.json", "/files/good.json"]);
    expect(stats).toMatchObject({ fetched: 1, failed: 1 });
    const rows = await test.db.sql<{ path: string; status: string; hasBody: boolean }[]>`
      select path, status, (body_json is not null or body_bytes is not null) as "hasBody"
      from regwatch.change_files order by path`;
    expect(rows).toEqual([
      { path: "/files/always-cut.json", status: "failed", hasBody: false },
      { path: "/files/good.json", status: "fetched", hasBody: true },
    ]);
    expect(await stagedRows()).toBe(0);
  });

  it("fails a body above REGWATCH_MAX_FILE_BYTES alone, declared or not, naming the cap", async () => {
    const big = body(200); // well above 4096 bytes
    expect(big.length).toBeGreaterThan(MAX_FILE_BYTES);
    const small = body(3);
    server.answer = (req, res) => {
      if (req.path.endsWith("declared.json")) {
        res.writeHead(200, { "content-type": "application/json", "content-length": big.length });
        res.end(big);
      } else if (req.path.endsWith("undeclared.json")) {
        res.writeHead(200, { "content-type": "application/json" }); // chunked, no length
        res.write(big.subarray(0, 3000));
        res.end(big.subarray(3000));
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(small);
      }
    };
    const stats = await fetchAll(["/files/declared.json", "/files/undeclared.json", "/files/small.json"]);
    expect(stats).toMatchObject({ fetched: 1, failed: 2 });
    const rows = await test.db.sql<
      { path: string; status: string; lastError: string | null; hasBody: boolean }[]
    >`
      select path, status, last_error as "lastError", (body_json is not null or body_bytes is not null) as "hasBody"
      from regwatch.change_files order by path`;
    expect(rows.map((r) => [r.path, r.status, r.hasBody])).toEqual([
      ["/files/declared.json", "failed", false],
      ["/files/small.json", "fetched", true],
      ["/files/undeclared.json", "failed", false],
    ]);
    for (const row of rows.filter((r) => r.status === "failed"))
      expect(row.lastError).toContain("REGWATCH_MAX_FILE_BYTES");
    // Too big is not worth asking again: one request each.
    expect(server.seen.filter((s) => s.path === "/files/declared.json").length).toBe(1);
    expect(server.seen.filter((s) => s.path === "/files/undeclared.json").length).toBe(1);
    expect(await stagedRows()).toBe(0);
  });

  // The bytes were once COPYed in as one COPY for the whole body, and the driver's COPY stream
  // never settled when the server ended it with an error: here the statement timeout cancels a
  // COPY that waits on a stalled body, and the save (its job, in a worker) waited forever. Each
  // staged row is now a short COPY of its own, sent once its bytes have arrived, so none stays
  // open while the body stalls, and any error of theirs rejects the save.
  it("stores a body that stalls for longer than the session's statement timeout", {
    timeout: 20_000,
  }, async () => {
    const whole = body(40);
    const path = "/files/stalled.json";
    await test.db.sql`insert into regwatch.change_files (path) values (${path})`;
    const timed = scopedSql(
      postgres(test.url, { max: 1, onnotice: () => {}, connection: { statement_timeout: 300 } }),
      "regwatch",
    );
    try {
      async function* stalling() {
        yield whole.subarray(0, whole.length >> 1);
        await new Promise((r) => setTimeout(r, 1500));
        yield whole.subarray(whole.length >> 1);
      }
      const saved = await saveStreamedFile(timed, {
        path,
        httpStatus: 200,
        contentType: "application/json",
        chunks: stalling(),
        onChunk: () => {},
        facts: () => ({
          sha256: createHash("sha256").update(whole).digest("hex"),
          size: whole.length,
          asJson: true,
          refusal: null,
        }),
      });
      expect(saved.refusal).toBeNull();
      const [row] = await test.db.sql<{ status: string; changes: number }[]>`
        select status, jsonb_array_length(body_json->'changes') as changes
        from regwatch.change_files where path = ${path}`;
      expect(row).toEqual({ status: "fetched", changes: 40 });
    } finally {
      await timed.end({ timeout: 1 });
    }
  });
});

/**
 * Downloads end when their client goes away: with the console on a 3-connection pool, fourteen
 * downloads (payment batch CSV and XLSX, change feed CSV and XLSX) each abandoned after their
 * first bytes leave no connection stuck in a cursor, and the console still answers a page.
 * The clients are raw sockets that read one chunk and destroy themselves, so the server's socket
 * buffer is full (the answers are several megabytes) when they go.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/db/connect.ts";
import { createUser, type SignedIn, signIn, startTestConsole, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const ROWS = 20_000;

let t: TestDatabase;
let db: Database;
let web: TestConsole;
let session: SignedIn;
let batchId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  const { sql } = t.db;
  const [batch] = await sql<{ id: string }[]>`
    insert into regwatch.payment_batches (source, file_name, finished_at, row_count)
    values ('cli', 'big.csv', now(), ${ROWS}) returning id::text`;
  batchId = batch!.id;
  await sql`
    insert into regwatch.payment_checks (batch_id, line, tax_id, bank_account, verdict, detail, amount, currency)
    select ${batchId}::uuid, g + 1, lpad(g::text, 8, '1'), '11773016-11111018-00000000', 'account_not_registered',
           repeat('the account is not among those the registry lists for the payee. ', 5), g, 'HUF'
    from generate_series(1, ${ROWS}) g`;
  await sql`insert into regwatch.watch_lists (list_key, list_name) values ('key-main', 'main')`;
  await sql`
    insert into regwatch.changes (tax_id, change_date, chapter, path, changed_headings, raw)
    select lpad(g::text, 8, '2'), '2026-11-20', 'registry', '/files/big-' || g || '.json', array['name'], '{}'
    from generate_series(1, ${ROWS}) g`;
  await sql`insert into regwatch.change_sources (change_id, list_key) select id, 'key-main' from regwatch.changes`;
  await sql`
    insert into regwatch.change_values (change_id, heading, tax_id, change_date, old_value, new_value, path)
    select id, 'name', tax_id, change_date, to_jsonb(repeat('Old name Kft ', 10)), to_jsonb(repeat('New name Zrt ', 10)), path
    from regwatch.changes`;
  db = await openDatabase({ databaseUrl: t.url, dataDir: "" }, { max: 3 });
  web = await startTestConsole(db);
  await createUser(db, "rita", "reader");
  session = await signIn(web.url, "rita");
}, 120_000);
afterAll(async () => {
  await web?.close();
  await db?.close();
  await t?.drop();
});

/** GETs `path` on a raw socket, reads the first chunk of the answer and destroys the socket. */
function abandon(path: string): Promise<string> {
  const { port } = new URL(web.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1", () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${session.cookie}\r\n\r\n`);
    });
    // A server whose pool is taken by earlier downloads never answers: stop waiting (the test
    // then fails on the page below, not here).
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve("");
    }, 10_000);
    socket.once("data", (chunk: Buffer) => {
      clearTimeout(giveUp);
      socket.destroy();
      resolve(chunk.toString("latin1").split("\r\n")[0]!);
    });
    socket.once("error", (error) => {
      clearTimeout(giveUp);
      reject(error);
    });
  });
}

/** The console's connections (this process's, to the test database) doing anything but waiting idle. */
async function busyConnections(): Promise<number> {
  const [row] = await t.db.sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`;
  return row!.n;
}

describe("an abandoned download", () => {
  it("returns its connection: 14 abandoned on a 3-connection pool, the console still answers", async () => {
    const paths = [
      `/payments/${batchId}.csv`,
      `/payments/${batchId}.xlsx`,
      "/changes.csv?since=2026-11-01",
      "/changes.xlsx?since=2026-11-01",
    ];
    const statuses: string[] = [];
    for (let i = 0; i < 14; i++) statuses.push(await abandon(paths[i % paths.length]!));
    expect(statuses).toEqual(Array.from({ length: 14 }, () => "HTTP/1.1 200 OK"));

    const page = await fetch(`${web.url}/payments`, {
      headers: { cookie: session.cookie },
      signal: AbortSignal.timeout(20_000),
    });
    expect(page.status).toBe(200);

    // Settled within a deadline (polled, not slept): no cursor is left holding a connection.
    const deadline = Date.now() + 15_000;
    let busy = await busyConnections();
    while (busy > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      busy = await busyConnections();
    }
    expect(busy).toBe(0);
  });

  it("is still whole for a client that reads it all", async () => {
    const answer = await fetch(`${web.url}/payments/${batchId}.csv`, { headers: { cookie: session.cookie } });
    const text = await answer.text();
    expect(answer.status).toBe(200);
    expect(text.trimEnd().split("\r\n")).toHaveLength(ROWS + 1);
  });
});

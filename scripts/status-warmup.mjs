// The warm run of `regwatch status` that the build makes the status file's code cache after
// (scripts/one-file-builds.mjs) talks to a stand-in for Postgres that replays what a real server
// answered a status once (scripts/status-warmup.json): the functions a status runs once connected
// (the driver's reading of answers, the report, its printing) then come compiled in the cache too,
// about 7 % of a status's instructions, where a run against a port where nothing listens stopped at
// connecting. The server's messages are replayed in order, each of the client's messages getting
// those the real server answered it with; the count of applied migrations is this build's (so the
// run finds the schema current), and a status whose statements changed since the recording gets
// answers that no longer fit: the stand-in then closes the connection and the warm run fails,
// which costs only the cache's coverage (test/status/status-build.test.ts says so, and
// `node scripts/status-warmup.mjs --record` records it again).
//
// Recording: `node scripts/status-warmup.mjs --record` with TEST_DATABASE_URL (or DATABASE_URL)
// naming a server: a database of its own is made, migrated and given a list, its coverage and a
// run, and a status of the build (bin/regwatch.js) is recorded through a proxy, then dropped.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import { fileURLToPath } from "node:url";

export const CONVERSATION = fileURLToPath(new URL("./status-warmup.json", import.meta.url));
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const JOURNAL = "__drizzle_migrations";

/**
 * The client's complete messages at the start of `buffer`, [type, body] each (type "" for the
 * first unless `started`: a startup or SSL request has no type byte), and what is left after them.
 */
function messages(buffer, started) {
  const out = [];
  let at = 0;
  while (true) {
    const head = started ? 1 : 0;
    if (buffer.length < at + head + 4) break;
    const length = buffer.readInt32BE(at + head);
    if (buffer.length < at + head + length) break;
    out.push([
      started ? String.fromCharCode(buffer[at]) : "",
      buffer.subarray(at + head + 4, at + head + length),
    ]);
    at += head + length;
    started = true;
  }
  return { out, rest: buffer.subarray(at) };
}

/** The server's messages in `bytes`: [type, the whole message] each. */
function serverMessages(bytes) {
  const out = [];
  for (let at = 0; at < bytes.length; ) {
    const end = at + 1 + bytes.readInt32BE(at + 1);
    out.push([String.fromCharCode(bytes[at]), bytes.subarray(at, end)]);
    at = end;
  }
  return out;
}

/** A DataRow of one value. */
function countRow(value) {
  const text = Buffer.from(String(value));
  const row = Buffer.alloc(11 + text.length);
  row.write("D", 0, "latin1");
  row.writeInt32BE(10 + text.length, 1);
  row.writeInt16BE(1, 5);
  row.writeInt32BE(text.length, 7);
  text.copy(row, 11);
  return row;
}

/**
 * The answers each of the client's messages gets, by its type: the server's messages of that
 * type, those it may send before them (`before`), and whether more of the first kind may follow.
 */
const ANSWERED = {
  P: { last: ["1"] },
  B: { last: ["2"] },
  D: { before: ["t"], last: ["T", "n"] },
  E: { before: ["D"], last: ["C", "I", "s"] },
  S: { last: ["Z"] },
  Q: { before: ["T", "D", "C", "I", "N"], last: ["Z"] },
  "": { before: ["R", "S", "K", "N"], last: ["Z"] },
};

/**
 * A server on 127.0.0.1 that answers each connection with `conversation`'s recorded answers, each
 * of the client's messages with the messages the real server answered it with, in order; the
 * count of applied migrations with `migrations`. It ends a connection once the recording runs
 * out or no longer fits what the client asks.
 */
export async function replayServer(conversation, migrations) {
  const recorded = serverMessages(Buffer.from(conversation.server, "base64"));
  const server = net.createServer((socket) => {
    let buffer = Buffer.alloc(0);
    let started = false;
    let next = 0;
    const texts = new Map();
    let journal = false;
    socket.on("error", () => {});
    socket.on("data", (data) => {
      const { out, rest } = messages(Buffer.concat([buffer, data]), started);
      buffer = rest;
      for (const [type, body] of out) {
        if (!started && body.readInt32BE(0) === 80877103) {
          socket.write("N"); // no TLS: the startup message follows
          continue;
        }
        started = true;
        const text = body.toString("latin1");
        if (type === "P") texts.set(text.slice(0, text.indexOf("\0")), text);
        if (type === "B") {
          const statement = text.slice(text.indexOf("\0") + 1);
          journal = (texts.get(statement.slice(0, statement.indexOf("\0"))) ?? "").includes(JOURNAL);
        }
        if (type === "X") return void socket.end();
        const answered = ANSWERED[type];
        if (!answered) continue; // Flush, Close: nothing of their own
        while (next < recorded.length && answered.before?.includes(recorded[next][0])) {
          const [kind, bytes] = recorded[next++];
          socket.write(kind === "D" && journal ? countRow(migrations) : bytes);
        }
        if (next >= recorded.length || !answered.last.includes(recorded[next][0]))
          return void socket.destroy();
        socket.write(recorded[next++][1]);
      }
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `postgres://regwatch@127.0.0.1:${port}/regwatch`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The number of migrations this build ships (its journal's entries). */
export function shippedMigrations(root = ROOT) {
  return JSON.parse(readFileSync(`${root}/migrations/meta/_journal.json`, "utf8")).entries.length;
}

/** What a real server answers `regwatch status` (the build's) on `databaseUrl`, through a proxy. */
async function recordStatus(databaseUrl) {
  const target = new URL(databaseUrl);
  const answered = [];
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    client.on("data", (data) => upstream.write(data));
    upstream.on("data", (data) => {
      answered.push(data);
      client.write(data);
    });
    client.on("end", () => upstream.end());
    upstream.on("end", () => client.end());
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const via = new URL(databaseUrl);
  via.hostname = "127.0.0.1";
  via.port = String(server.address().port);
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [`${ROOT}/bin/regwatch.js`, "status"], {
      env: { PATH: process.env.PATH ?? "", DATABASE_URL: via.href },
      stdio: ["ignore", "ignore", "inherit"],
    });
    child.on("exit", resolve);
  });
  await new Promise((resolve) => server.close(() => resolve()));
  if (code !== 0) throw new Error(`the recorded status exited ${code}`);
  return { server: Buffer.concat(answered).toString("base64") };
}

async function record() {
  const serverUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!serverUrl)
    throw new Error("--record needs TEST_DATABASE_URL or DATABASE_URL naming a Postgres server");
  const { default: postgres } = await import("postgres");
  const name = `regwatch_warmup_${process.pid}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    // A first status migrates the new database; the recorded one finds it current.
    await recordStatus(url.href);
    const sql = postgres(url.href, { max: 1, onnotice: () => {} });
    await sql`insert into regwatch.watch_lists (list_key, list_name, created_at, watch_count)
      values ('wl_a', 'a list', current_date - 30, 2)`;
    await sql`insert into regwatch.coverage (list_key, start_date, end_date)
      values ('wl_a', current_date - 30, current_date - 20), ('wl_a', current_date - 10, current_date - 3)`;
    await sql`insert into regwatch.runs (kind, trigger, started_at, finished_at, status, stats)
      values ('sync', 'cli', now() - interval '1 hour', now() - interval '59 minutes', 'ok', '{"changesWritten": 4}')`;
    await sql.end();
    writeFileSync(CONVERSATION, `${JSON.stringify(await recordStatus(url.href), null, 1)}\n`);
  } finally {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "--record") await record();

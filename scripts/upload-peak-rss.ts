/**
 * The console's peak memory for a 100 MB payment upload, measured on the built command:
 *
 *   node scripts/build.mjs && DATABASE_URL=postgres://... node bin/run-ts.js scripts/upload-peak-rss.ts [MB]
 *
 * A scratch database is made on DATABASE_URL's server (and dropped after); for each case a fresh
 * `regwatch web` is started, a reviewer signs in and uploads the file as the browser's form does,
 * and the server's peak resident memory (VmHWM in /proc, Linux) is read once it has answered.
 * Cases: a file of valid rows of the given size (default 100 MB), and a file of that size that is
 * one 95% cell (refused once the cell passes the reader's bound). Prints one line per case.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createWriteStream, openAsBlob } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";

const BIN = path.resolve("bin/regwatch.js");
const PASSWORD = "peak memory pass phrase";
const ACCOUNT = "11773016-11111018-00000000";

async function writeFileOfSize(file: string, bytes: number, oneCell: boolean): Promise<void> {
  const out = createWriteStream(file);
  const write = async (text: string) => {
    if (!out.write(text)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  };
  await write("tax_id;bank_account;amount;currency;reference;name\n");
  if (oneCell) {
    await write(`12345676;${ACCOUNT};100;HUF;`);
    const piece = "x".repeat(1024 * 1024);
    for (let left = Math.floor(bytes * 0.95); left > 0; left -= piece.length) await write(piece);
    await write(";Nobody\n");
  } else {
    let written = 0;
    for (let i = 0; written < bytes; i++) {
      const line = `${String(10_000_000 + (i % 5000))};${ACCOUNT};${1000 + (i % 997)},50;HUF;INV-${i}-${"r".repeat(60)};Payee ${i % 5000} Kereskedelmi és Szolgáltató Kft\n`;
      written += Buffer.byteLength(line);
      await write(line);
    }
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

function regwatch(args: string[], env: Record<string, string>, input?: string): void {
  execFileSync(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, REGWATCH_LOG_LEVEL: "warn", ...env },
    input,
    stdio: [input === undefined ? "ignore" : "pipe", "ignore", "inherit"],
  });
}

async function startWeb(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, "web", "--port", "0"], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, REGWATCH_LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`regwatch web exited ${code}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /console on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve(match[1]!);
    });
  });
  return { url, child };
}

const cookieOf = (answer: Response, name: string) =>
  answer.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .find((c) => c.startsWith(`${name}=`));
const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1]!;

async function signIn(url: string): Promise<{ cookie: string; csrf: string }> {
  const form = await fetch(`${url}/login`);
  const loginCookie = form.headers
    .getSetCookie()
    .map((c) => c.split(";")[0]!)
    .join("; ");
  const answer = await fetch(`${url}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: loginCookie },
    body: new URLSearchParams({ username: "peak", password: PASSWORD, _csrf: csrfOf(await form.text()) }),
  });
  const cookie = cookieOf(answer, "regwatch_session")!;
  const home = await fetch(`${url}/payments`, { headers: { cookie } });
  return { cookie, csrf: csrfOf(await home.text()) };
}

async function peakKib(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]);
}

async function measure(env: Record<string, string>, file: string, label: string): Promise<void> {
  const { url, child } = await startWeb(env);
  try {
    const session = await signIn(url);
    const before = await peakKib(child.pid!);
    const form = new FormData();
    form.append("_csrf", session.csrf);
    form.append("file", await openAsBlob(file, { type: "text/csv" }), path.basename(file));
    const started = Date.now();
    const answer = await fetch(`${url}/payments`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: session.cookie },
      body: form,
    });
    const body = await answer.text();
    const seconds = (Date.now() - started) / 1000;
    const peak = await peakKib(child.pid!);
    const problem = /<li>([^<]*line[^<]*)<\/li>/.exec(body)?.[1] ?? "";
    console.log(
      `${label}: status ${answer.status}, ${seconds.toFixed(1)} s, server peak RSS ${(peak / 1024).toFixed(0)} MB (${(before / 1024).toFixed(0)} MB before the upload)${problem ? `; ${problem}` : ""}`,
    );
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

const base = process.env.DATABASE_URL;
if (!base) {
  console.error("upload-peak-rss: set DATABASE_URL to a Postgres server (a scratch database is made there)");
  process.exit(64);
}
const megabytes = Number(process.argv[2] ?? 100);
const scratch = `regwatch_rss_${process.pid}`;
const admin = postgres(base, { max: 1, onnotice: () => {} });
const dir = await mkdtemp(path.join(tmpdir(), "regwatch-rss-"));
await admin.unsafe(`create database ${scratch}`);
try {
  const url = new URL(base);
  url.pathname = `/${scratch}`;
  const env = { DATABASE_URL: url.toString() };
  regwatch(["migrate"], env);
  regwatch(["users", "add", "peak", "--role", "reviewer", "--password-stdin"], env, `${PASSWORD}\n`);
  const rows = path.join(dir, "rows.csv");
  // Just under the console's 100 MiB limit at the default size (a file at it answers 413).
  await writeFileOfSize(rows, megabytes * 1024 * 1024 - 64 * 1024, false);
  await measure(env, rows, `${megabytes} MB of rows`);
  await rm(rows);
  const cell = path.join(dir, "cell.csv");
  await writeFileOfSize(cell, megabytes * 1024 * 1024, true);
  await measure(env, cell, `${megabytes} MB, one ${Math.floor(megabytes * 0.95)} MB cell`);
} finally {
  await rm(dir, { recursive: true, force: true });
  await admin.unsafe(`drop database if exists ${scratch} with (force)`);
  await admin.end();
}

/**
 * The web console in a test: started on a free port against a test database, users created
 * through the same functions `regwatch users` uses, and signed in over real HTTP (GET /login for
 * its CSRF cookie, POST /login, the session cookie and the session's CSRF token read back).
 */
import { type ChildProcess, spawn } from "node:child_process";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { loadConfig } from "../../src/config.ts";
import { addConsoleUser, type ConsoleRole } from "../../src/console/users.ts";
import type { Database } from "../../src/db/connect.ts";
import { type Logger, silentLogger } from "../../src/logger.ts";
import type { WebDeps } from "../../src/web/kit.ts";
import { hashPassword } from "../../src/web/passwords.ts";
import { type ConsoleTimeouts, type RunningConsole, startConsole } from "../../src/web/server.ts";
import { childBaseEnv } from "./child-env.ts";

export const TEST_PASSWORD = "correct horse battery";

export interface TestConsole extends RunningConsole {
  deps: WebDeps;
  /** Moves the console's clock (session expiry, "new since yesterday"). */
  setNow(at: Date): void;
}

export async function startTestConsole(
  db: Database,
  options: {
    env?: Record<string, string>;
    now?: Date;
    log?: Logger;
    timeouts?: Partial<ConsoleTimeouts>;
    /** A port chosen beforehand (freePort), when the address must be known before it starts. */
    port?: number;
  } = {},
): Promise<TestConsole> {
  let now = options.now ?? new Date();
  const deps: WebDeps = {
    db,
    config: loadConfig({ DATABASE_URL: db.url, ...options.env }),
    now: () => now,
    log: options.log ?? silentLogger,
  };
  const running = await startConsole(
    deps,
    { host: "127.0.0.1", port: options.port ?? 0 },
    options.timeouts ? { timeouts: options.timeouts } : {},
  );
  return {
    ...running,
    deps,
    setNow: (at) => {
      now = at;
    },
  };
}

/** A loopback port free a moment ago: for a console whose address a provider must know first. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function createUser(
  db: Database,
  name: string,
  role: ConsoleRole,
  password = TEST_PASSWORD,
  locale: "en" | "hu" | null = null,
): Promise<void> {
  const added = await addConsoleUser(db.sql, {
    name,
    role,
    passwordHash: await hashPassword(password),
    locale,
  });
  if (!added) throw new Error(`user ${name} exists already`);
}

export interface SignedIn {
  /** The Cookie header value to send: the session cookie. */
  cookie: string;
  /** The session's CSRF token, for the `_csrf` field of every POST. */
  csrf: string;
}

/** Signs in over HTTP; throws with the answer's status when sign-in does not answer 303. */
export async function signIn(url: string, name: string, password = TEST_PASSWORD): Promise<SignedIn> {
  const form = await fetch(`${url}/login`);
  const loginCookie = cookiePairs(form.headers.getSetCookie()).join("; ");
  const loginCsrf = hiddenCsrf(await form.text());
  const answer = await fetch(`${url}/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: loginCookie },
    body: new URLSearchParams({ username: name, password, _csrf: loginCsrf }),
  });
  if (answer.status !== 303) throw new Error(`sign-in as ${name} answered ${answer.status}`);
  const cookie = cookiePairs(answer.headers.getSetCookie()).find((c) => c.startsWith("regwatch_session="));
  if (!cookie) throw new Error("sign-in set no session cookie");
  const home = await fetch(`${url}/`, { headers: { cookie } });
  return { cookie, csrf: hiddenCsrf(await home.text()) };
}

/** POSTs a form as a signed-in user (the session's `_csrf` added unless `csrf` is given, even as null). */
export function postForm(
  url: string,
  session: SignedIn,
  fields: Record<string, string | string[]>,
  csrf: string | null = session.csrf,
): Promise<Response> {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    for (const one of Array.isArray(value) ? value : [value]) body.append(key, one);
  }
  if (csrf !== null) body.append("_csrf", csrf);
  return fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: session.cookie },
    body,
  });
}

/** GETs a page as a signed-in user, without following redirects. */
export function getPage(url: string, session: SignedIn): Promise<Response> {
  return fetch(url, { redirect: "manual", headers: { cookie: session.cookie } });
}

/** The value of the first hidden `_csrf` field of a page. */
export function hiddenCsrf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error("the page has no _csrf field");
  return match[1]!;
}

function cookiePairs(setCookies: string[]): string[] {
  return setCookies.map((c) => c.split(";")[0]!.trim());
}

/**
 * `regwatch web --port N` (0: any free port) as a process of its own (`bin` is the published
 * bin/regwatch.js or a copy of it), resolved once it logs the address it listens on. `nodeFlags`:
 * the flags bin/regwatch.js starts Node with (binNodeFlags), for a test of its memory.
 */
export async function startWebProcess(
  bin: string,
  env: Record<string, string>,
  nodeFlags: readonly string[] = [],
  port = 0,
): Promise<{ url: string; child: ChildProcess; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, [...nodeFlags, bin, "web", "--port", String(port)], {
    env: { ...childBaseEnv(), REGWATCH_LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    void exited.then((code) => reject(new Error(`regwatch web exited ${code}: ${output}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /console on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve(match[1]!);
    });
  });
  return {
    url,
    child,
    stop: () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

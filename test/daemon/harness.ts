/** regwatch daemon as a subprocess: its JSON log lines, the HTTP port it reports, and its exit. */
import { type ChildProcess, spawn } from "node:child_process";
import { addDays, localDateTime } from "../../src/dates.ts";
import type { RunningEmulator } from "../../src/emulator/index.ts";
import { childBaseEnv } from "../helpers/child-env.ts";
import { BIN } from "../helpers/cli.ts";
import type { TestDatabase } from "../helpers/db.ts";
import { sampleTaxIds, seedList } from "../helpers/sync.ts";

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

export interface DaemonProcess {
  child: ChildProcess;
  lines: LogLine[];
  /**
   * Resolves with the first log line (already seen or to come) that satisfies `test`; rejects
   * when the daemon exits first. No deadline of its own: the test's timeout bounds it.
   */
  waitFor(test: (line: LogLine) => boolean): Promise<LogLine>;
  port(): Promise<number>;
  /** Sends SIGTERM; resolves with the exit code. */
  stop(): Promise<{ code: number | null }>;
}

export function startDaemon(env: Record<string, string>, args: string[] = []): DaemonProcess {
  const child = spawn(process.execPath, [BIN, "daemon", ...args], {
    env: { ...childBaseEnv(), REGWATCH_HTTP_PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // A test that times out never reaches its own clean-up: the daemon ends with the test's process.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  child.once("exit", () => process.off("exit", killOnExit));
  const lines: LogLine[] = [];
  const waiters: Array<{ test: (l: LogLine) => boolean; resolve: (l: LogLine) => void }> = [];
  let buffer = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    let nl = buffer.indexOf("\n");
    while (nl >= 0) {
      const text = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      nl = buffer.indexOf("\n");
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        line = { level: 0, msg: `(not JSON) ${text}` };
      }
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.test(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const waitFor = (test: (l: LogLine) => boolean) => {
    const seen = lines.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise<LogLine>((resolve, reject) => {
      waiters.push({ test, resolve });
      void exited.then((code) => {
        reject(
          new Error(
            `daemon exited ${code} before the awaited line; stderr: ${stderr}\nlog:\n${lines.map((l) => l.msg).join("\n")}`,
          ),
        );
      });
    });
  };
  return {
    child,
    lines,
    waitFor,
    port: async () => Number((await waitFor((l) => typeof l.port === "number" && /health/.test(l.msg))).port),
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return { code: await exited };
    },
  };
}

export function daemonEnv(emulator: RunningEmulator, t: TestDatabase, extra: Record<string, string> = {}) {
  return {
    DATABASE_URL: t.url,
    REGWATCH_WATCH_URL: emulator.url,
    REGWATCH_API_KEY: emulator.apiKey,
    REGWATCH_RATE_LIMIT: "100",
    REGWATCH_RETRY_BASE_MS: "20",
    REGWATCH_LOG_LEVEL: "debug",
    ...extra,
  };
}

/**
 * A daily schedule in UTC that last fired two hours ago, so "missed" and "done" are decided by
 * the runs a test inserts, whatever the time of day the test runs at.
 */
export function scheduleTwoHoursAgo(now = new Date()): { schedule: string; slot: Date } {
  const slot = new Date(now.getTime() - 2 * 3600_000);
  slot.setUTCSeconds(0, 0);
  return {
    schedule: `${slot.getUTCMinutes()} ${slot.getUTCHours()} * * *`,
    slot,
  };
}

/** Lists with history on the emulator, created `daysAgo` days before today (Budapest). */
export async function seedLists(
  emulator: RunningEmulator,
  lists: Array<{ name: string; daysAgo: number; size: number }>,
): Promise<void> {
  const ids = sampleTaxIds(
    emulator,
    lists.reduce((n, l) => n + l.size, 0),
  );
  const today = localDateTime(new Date(), "Europe/Budapest").date;
  let offset = 0;
  for (const list of lists) {
    await seedList(emulator, {
      name: list.name,
      createdAt: addDays(today, -list.daysAgo),
      taxIds: ids.slice(offset, offset + list.size),
    });
    offset += list.size;
  }
}

/** Coverage rows committed so far (0 until the first window of a run commits). */
export async function coverageRows(t: TestDatabase): Promise<number> {
  const [row] = await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.coverage`;
  return row?.n ?? 0;
}

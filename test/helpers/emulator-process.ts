import { type ChildProcess, spawn } from "node:child_process";
import { childBaseEnv } from "./child-env.ts";
import { BIN } from "./cli.ts";

/** The emulator in a process of its own, so its clock of arrivals is not our event loop's. */
export interface EmulatorProcess {
  /** The emulator's origin (its API, without a version segment, and its admin routes). */
  url: string;
  /** REGWATCH_WATCH_URL and REGWATCH_SEARCH_URL as printed: with /v2 and /v1. */
  watchUrl: string;
  searchUrl: string;
  apiKey: string;
  /** REGWATCH_FILE_ORIGINS as printed: the API origin, and the file origin when it is a second one. */
  fileOrigins: string;
  /** Everything it printed at start (with tenants: the accounts file it suggests). */
  printed: string;
  pid: number;
  admin<T = unknown>(path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/** `regwatch emulator --port 0 ARGS` of `bin` (by default the checkout's build), once it has printed its addresses. */
export async function startEmulatorProcess(args: string[], bin = BIN): Promise<EmulatorProcess> {
  const child: ChildProcess = spawn(process.execPath, [bin, "emulator", "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: childBaseEnv(),
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`emulator did not start: ${output}`)), 30_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      // The printed REGWATCH_WATCH_URL ends in /v2; `url` is the origin (admin routes live there).
      const m = /^\s*url:\s+(\S+)/m.exec(output);
      if (m && /REGWATCH_(WATCH_URL|ACCOUNTS_FILE)=/.test(output)) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("exit", (code) => reject(new Error(`emulator exited ${code}: ${output}`)));
  });
  return {
    url,
    watchUrl: /REGWATCH_WATCH_URL=(\S+)/.exec(output)?.[1] ?? url,
    searchUrl: /REGWATCH_SEARCH_URL=(\S+)/.exec(output)?.[1] ?? url,
    apiKey: /REGWATCH_API_KEY=(\S+)/.exec(output)?.[1] ?? "emulator-key",
    fileOrigins: /REGWATCH_FILE_ORIGINS=(\S+)/.exec(output)?.[1] ?? url,
    printed: output,
    pid: child.pid!,
    async admin<T>(path: string, body?: unknown): Promise<T> {
      const response = await fetch(`${url}/_emulator/${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`admin ${path}: ${response.status} ${await response.text()}`);
      return (response.status === 204 ? undefined : await response.json()) as T;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

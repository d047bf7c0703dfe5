import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { childBaseEnv } from "./child-env.ts";

/**
 * `regwatch` as users run it: the published bin/regwatch.js over the dist/ that the product tests'
 * global setup builds once from the sources (test/setup/build.ts), so what a test proves holds for
 * the build, lazily loaded chunks and all. A test that needs the sources says why and uses SOURCE_BIN.
 */
export const BIN = fileURLToPath(new URL("../../bin/regwatch.js", import.meta.url));

/** `regwatch` from the TypeScript sources through tsx, for the few tests that say why they need it. */
export const SOURCE_BIN = fileURLToPath(new URL("../../bin/regwatch-src.js", import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `regwatch ARGS` as a subprocess with only the given environment (plus PATH and HOME). */
export function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 60_000,
): Promise<CliResult> {
  return runProcess(process.execPath, [BIN, ...args], { REGWATCH_LOG_LEVEL: "warn", ...env }, timeoutMs);
}

/** `regwatch ARGS` with `input` written to its standard input (a password for `users add`). */
export function runCliWithInput(
  args: string[],
  env: Record<string, string | undefined>,
  input: string,
  timeoutMs = 60_000,
): Promise<CliResult> {
  return runProcess(
    process.execPath,
    [BIN, ...args],
    { REGWATCH_LOG_LEVEL: "warn", ...env },
    timeoutMs,
    undefined,
    input,
  );
}

/**
 * Runs any command with only the given environment (plus PATH and HOME), killed after the
 * timeout; `input`, when given, is its standard input (else it has none).
 */
export function runProcess(
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs: number,
  cwd?: string,
  input?: string,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...childBaseEnv(), ...env },
      stdio: [input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    if (input !== undefined) child.stdin!.end(input);
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr!.on("data", (c: Buffer) => {
      stderr += c.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

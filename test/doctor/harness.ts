/**
 * What the doctor tests share: a test database, an emulator and a hostile server for the file;
 * a configuration from a given environment (as a user writes it) and the doctor run in process
 * against it; a port nothing listens on; and the one result of a check.
 */
import { createServer } from "node:net";
import { afterAll, beforeAll, expect } from "vitest";
import { loadConfig } from "../../src/config.ts";
import type { CheckResult } from "../../src/doctor/report.ts";
import { runDoctor } from "../../src/doctor/run.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HostileServer, startHostileServer } from "../helpers/hostile-server.ts";

export type Env = Record<string, string | undefined>;

export interface DoctorWorld {
  readonly tdb: TestDatabase;
  readonly emulator: RunningEmulator;
  readonly hostile: HostileServer;
  /** A setup as the README tells a user to write it, against the emulator, with `extra` over it. */
  env(extra?: Env): Env;
}

/** Starts the file's database, emulator and hostile server before its tests; stops them after. */
export function doctorWorld(seed: number, base: Env = {}): DoctorWorld {
  const parts: Partial<{ tdb: TestDatabase; emulator: RunningEmulator; hostile: HostileServer }> = {};
  beforeAll(async () => {
    [parts.tdb, parts.emulator, parts.hostile] = await Promise.all([
      createTestDatabase(),
      startEmulator({ seed, businesses: 200 }),
      startHostileServer(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([parts.emulator?.close(), parts.hostile?.close()]);
    await parts.tdb?.drop();
  });
  return {
    get tdb() {
      return parts.tdb!;
    },
    get emulator() {
      return parts.emulator!;
    },
    get hostile() {
      return parts.hostile!;
    },
    env(extra = {}) {
      return {
        DATABASE_URL: parts.tdb!.url,
        REGWATCH_WATCH_URL: `${parts.emulator!.url}/v2`,
        REGWATCH_SEARCH_URL: `${parts.emulator!.url}/v1`,
        REGWATCH_API_KEY: parts.emulator!.apiKey,
        ...base,
        ...extra,
      };
    },
  };
}

/** The doctor's report for this environment (only these variables, as a fresh shell would have). */
export async function doctorWith(env: Env): Promise<CheckResult[]> {
  const config = loadConfig(env as NodeJS.ProcessEnv);
  return runDoctor(config, { env: env as NodeJS.ProcessEnv });
}

/** The one result named `check` (a test failing here names the checks that were there). */
export function resultOf(results: readonly CheckResult[], check: string): CheckResult {
  const found = results.filter((r) => r.check === check);
  expect(
    found.map((r) => r.check),
    `checks: ${results.map((r) => r.check).join(", ")}`,
  ).toEqual([check]);
  return found[0]!;
}

/** Every result that is not ok, as "check: status", for asserting that only one thing failed. */
export function notOk(results: readonly CheckResult[]): string[] {
  return results.filter((r) => r.status !== "ok").map((r) => `${r.check}: ${r.status}`);
}

/** A local port that was free a moment ago and has nobody listening on it. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

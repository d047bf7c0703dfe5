/**
 * How big each scenario of `npm run bench` is: the full run (the figures of bench/results.json),
 * `--quick` (a smaller run, printed and written as usual) and `--smoke` (every scenario at a size
 * that only proves it still runs; nothing is judged or written).
 */
import { FULL as FILES_FULL, QUICK as FILES_QUICK } from "./files-pipeline.ts";
import { FLEET_QUICK } from "./fleet.ts";

export type BenchMode = "full" | "quick" | "smoke";

export interface BenchSize {
  /** Starts of `regwatch --help` (and of `regwatch status`) whose median is the start-up figure. */
  startupRuns: number;
  /** Businesses of the emulator whose start is timed (`emulator_start_200k_s` at full size). */
  emulatorBusinesses: number;
  api: { lists: number; weeks: number; itemsPerList: number; latencyMs: number; rateLimit: number };
  ingest: { changes: number; batch: number; writers: number };
  files: { lists: number; items: number; weeks: number };
  /** The memory scenarios: change files (count and bytes each) and items in one changes answer. */
  memory: { files: number; fileBytes: number; answerItems: number };
  daily: { lists: number; itemsPerList: number; weeks: number };
  delivery: { alerts: number; latencyMs: number };
  payments: { rows: number; payees: number };
  /** Wide rows (about 64 KiB each) of the batch uploaded to the console (bench/upload-rss.ts). */
  upload: { rows: number };
  console: { alerts: number; requests: number };
  /** /changes: heading changes over three years, timed requests per page, the pages timed (1-based). */
  consoleChanges: { headingChanges: number; requests: number; pages: readonly number[] };
}

const FULL: BenchSize = {
  startupRuns: 5,
  emulatorBusinesses: 200_000,
  api: { lists: 100, weeks: 52, itemsPerList: 1, latencyMs: 50, rateLimit: 30 },
  ingest: { changes: 1_000_000, batch: 1000, writers: 4 },
  files: FILES_FULL,
  memory: { files: 10, fileBytes: 55 * 1000 * 1000, answerItems: 1_000_000 },
  daily: { lists: 20, itemsPerList: 500, weeks: 8 },
  delivery: { alerts: 1000, latencyMs: 50 },
  payments: { rows: 200_000, payees: 2_000 },
  upload: { rows: 1_500 },
  console: { alerts: 50_000, requests: 50 },
  consoleChanges: { headingChanges: 1_000_000, requests: 50, pages: [1, 100, 2000] },
};

const QUICK: BenchSize = {
  ...FULL,
  api: { ...FULL.api, lists: 10, weeks: 8 },
  ingest: { ...FULL.ingest, changes: 100_000 },
  files: FILES_QUICK,
  daily: { lists: 5, itemsPerList: 100, weeks: 4 },
};

/** Tiny on purpose: a few seconds a scenario, so CI can run them all on every push. */
const SMOKE: BenchSize = {
  startupRuns: 1,
  emulatorBusinesses: 2_000,
  api: { lists: 2, weeks: 1, itemsPerList: 1, latencyMs: 50, rateLimit: 30 },
  ingest: { changes: 2_000, batch: 250, writers: 2 },
  files: { lists: 1, items: 20, weeks: 1 },
  memory: { files: 2, fileBytes: 200_000, answerItems: 1_000 },
  daily: { lists: 2, itemsPerList: 10, weeks: 1 },
  delivery: { alerts: 20, latencyMs: 50 },
  payments: { rows: 500, payees: 50 },
  upload: { rows: 10 },
  console: { alerts: 200, requests: 3 },
  consoleChanges: { headingChanges: 2_000, requests: 3, pages: [1, 5, 20] },
};

export function benchSize(mode: BenchMode): BenchSize {
  return mode === "smoke" ? SMOKE : mode === "quick" ? QUICK : FULL;
}

/** The fleet at smoke size: two accounts, one worker, one short round. */
export const FLEET_SMOKE = {
  keys: 2,
  lists: 1,
  items: 5,
  weeks: 1,
  changesPerMonth: FLEET_QUICK.changesPerMonth,
};

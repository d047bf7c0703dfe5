/**
 * Discovery end to end: a sync against an emulator whose changes parameters are not the defaults
 * (date_from / date_to), with no REGWATCH_CHANGES_*_PARAM set, reads the emulator's description
 * and gets every change (the same as a sync against an emulator with the default names); the
 * reading is stored with its hash and day and not repeated that day; a variable set in the
 * environment wins, and its contradiction is a warning at every run; without a description the
 * defaults are used and the run says so; and the whole path works under a base address ending in
 * /v2 behind a path prefix.
 */
import { createHash } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import type { Sql } from "../../src/db/connect.ts";
import { type EmulatorOptions, type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { runSyncJob } from "../../src/jobs/sync-job.ts";
import { createLogger } from "../../src/logger.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { sampleTaxIds } from "../helpers/sync.ts";

// 08:00 in Budapest on 11 March: 10 March is the last complete day.
const MORNING = "2024-03-11T08:00:00+01:00";
const RENAMED = { changesFromParam: "date_from", changesToParam: "date_to" } as const;

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

async function emulatorWith(options: EmulatorOptions, taxIds?: string[]): Promise<RunningEmulator> {
  const emulator = await startEmulator({
    seed: 23,
    businesses: 2000,
    now: MORNING,
    frozenClock: true,
    rateLimit: 1000,
    ...options,
  });
  const ids = taxIds ?? sampleTaxIds(emulator, 12);
  const response = await fetch(`${emulator.url}/_emulator/lists`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "suppliers", createdAt: "2024-02-10", taxIds: ids }),
  });
  expect(response.status).toBeLessThan(300);
  return emulator;
}

/** One sync at the emulator's time, with the given environment, its log lines captured. */
async function sync(sql: Sql, emulator: RunningEmulator, env: Record<string, string>) {
  const lines: LogLine[] = [];
  const log = createLogger({ level: "info", stream: { write: (l) => lines.push(JSON.parse(l) as LogLine) } });
  const config = loadConfig({
    REGWATCH_WATCH_URL: `${emulator.baseUrl}/v2`,
    REGWATCH_API_KEY: emulator.apiKey,
    REGWATCH_TZ: "Europe/Budapest",
    REGWATCH_RATE_LIMIT: "500",
    REGWATCH_RETRY_BASE_MS: "10",
    REGWATCH_MAX_ATTEMPTS: "2",
    ...env,
  });
  const result = await runSyncJob(
    { sql, config, log, trigger: "cli", now: () => emulator.now() },
    { kind: "sync" },
  );
  return { result, lines };
}

const changesOf = (sql: Sql) =>
  sql<{ tax_id: string; day: string; chapter: string }[]>`
    select tax_id, to_char(change_date, 'YYYY-MM-DD') as day, chapter from regwatch.changes
    order by tax_id, change_date, chapter`;

describe("the registry's description, read by a sync", () => {
  let renamed: RunningEmulator;
  let plain: RunningEmulator;
  let a: TestDatabase;
  let b: TestDatabase;

  beforeAll(async () => {
    plain = await emulatorWith({});
    renamed = await emulatorWith(RENAMED, sampleTaxIds(plain, 12));
    [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  });
  afterAll(async () => {
    await Promise.all([a?.drop(), b?.drop()]);
    await Promise.all([plain?.close(), renamed?.close()]);
  });

  it("gets every change from a registry naming its parameters date_from and date_to", async () => {
    const reference = await sync(b.db.sql, plain, {});
    expect(reference.result.status).toBe("ok");
    const expected = await changesOf(b.db.sql);
    expect(expected.length).toBeGreaterThan(10);

    const { result, lines } = await sync(a.db.sql, renamed, {});
    expect(result.report.errors).toEqual([]);
    expect(result.status).toBe("ok");
    expect(await changesOf(a.db.sql)).toEqual(expected);
    const asked = renamed.requests().filter((r) => r.endpoint === "GET /v2/lists/:key/changes");
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((r) => r.status === 200 && r.query.date_from && r.query.date_to)).toBe(true);
    expect(
      lines.some((l) => /description names the changes parameters date_from and date_to/.test(l.msg)),
    ).toBe(true);

    const served = await (await fetch(`${renamed.url}/v2/openapi.json`)).arrayBuffer();
    const rows = await a.db.sql`
      select status, url, sha256, to_char(read_on, 'YYYY-MM-DD') as read_on, from_param, to_param,
             page_param, date_format, end_inclusive
      from regwatch.registry_descriptions`;
    expect(rows.map((r) => ({ ...r }))).toEqual([
      {
        status: "found",
        url: `${renamed.url}/v2/openapi.json`,
        sha256: createHash("sha256").update(Buffer.from(served)).digest("hex"),
        read_on: "2024-03-11",
        from_param: "date_from",
        to_param: "date_to",
        page_param: null,
        date_format: "date",
        end_inclusive: true,
      },
    ]);
  });

  it("reads the description at most once a day", async () => {
    renamed.resetLog();
    const again = await sync(a.db.sql, renamed, {});
    expect(again.result.status).toBe("ok");
    const described = () =>
      renamed.requests().filter((r) => r.path === "/v2/docs" || r.path.endsWith("/openapi.json"));
    expect(described()).toEqual([]);
    // The stored reading still decides the names sent.
    expect(renamed.requests().filter((r) => r.status === 422)).toEqual([]);

    renamed.advance(24 * 3600 * 1000);
    const nextDay = await sync(a.db.sql, renamed, {});
    expect(nextDay.result.status).toBe("ok");
    expect(described().map((r) => r.path)).toEqual(["/v2/docs", "/v2/openapi.json"]);
    const [row] = await a.db
      .sql`select to_char(read_on, 'YYYY-MM-DD') as read_on from regwatch.registry_descriptions`;
    expect(row!.read_on).toBe("2024-03-12");
  });

  it("sends what the environment sets, and warns at every run that the description disagrees", async () => {
    const env = { REGWATCH_CHANGES_FROM_PARAM: "start_date", REGWATCH_CHANGES_TO_PARAM: "end_date" };
    for (let run = 0; run < 2; run++) {
      // A morning later each time, so the run asks again the days it looks back on.
      renamed.advance(24 * 3600 * 1000);
      const { result, lines } = await sync(a.db.sql, renamed, env);
      const warnings = lines.filter((l) => l.level === 40).map((l) => l.msg);
      expect(warnings).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /^REGWATCH_CHANGES_FROM_PARAM is "start_date" but the registry's description names the changes parameter "date_from"/,
          ),
          expect.stringMatching(
            /^REGWATCH_CHANGES_TO_PARAM is "end_date" but the registry's description names the changes parameter "date_to"/,
          ),
        ]),
      );
      // The days looked back on are asked with the environment's names, and refused by name.
      expect(result.report.errors.join("\n")).toMatch(/query parameter date_from: Field required/);
    }
  });
});

describe("without a description, and under a path prefix", () => {
  // Each case in a database of its own: the emulators hand out the same list key.
  let t: TestDatabase;
  beforeEach(async () => {
    t = await createTestDatabase();
  });
  afterEach(async () => {
    await t?.drop();
  });

  it("keeps the defaults and says so once, storing that none is served", async () => {
    const bare = await emulatorWith({ describe: false });
    try {
      const { result, lines } = await sync(t.db.sql, bare, {});
      expect(result.status).toBe("ok");
      const said = lines.filter((l) => /no usable description of the registry/.test(l.msg));
      expect(said).toHaveLength(1);
      expect(said[0]!.msg).toMatch(/changes parameters are start_date and end_date/);
      const [row] = await t.db.sql`select status, tried, problem from regwatch.registry_descriptions`;
      expect(row).toMatchObject({
        status: "absent",
        tried: [`${bare.url}/v2/docs`, `${bare.url}/v2/openapi.json`, `${bare.url}/openapi.json`],
      });
    } finally {
      await bare.close();
    }
  });

  it("syncs through REGWATCH_WATCH_URL=.../watch/v2, files from the watch origin by default", async () => {
    const prefixed = await emulatorWith({ ...RENAMED, basePath: "/watch" });
    try {
      const { result } = await sync(t.db.sql, prefixed, {});
      expect(result.report.errors).toEqual([]);
      expect(result.status).toBe("ok");
      expect(result.report.filesFetched).toBeGreaterThan(0);
      expect(prefixed.requests().filter((r) => r.status === 404)).toEqual([]);
      const [row] = await t.db.sql`select status, url, from_param from regwatch.registry_descriptions`;
      expect(row).toMatchObject({
        status: "found",
        url: `${prefixed.url}/watch/v2/openapi.json`,
        from_param: "date_from",
      });
    } finally {
      await prefixed.close();
    }
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { runSyncJob } from "../../src/jobs/sync-job.ts";
import { silentLogger } from "../../src/logger.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  changesAnswer,
  type HostileRegistry,
  hostileEnv,
  item,
  startHostileRegistry,
} from "../helpers/hostile-registry.ts";
import { coveredRanges } from "../helpers/sync.ts";

// 08:00 in Budapest on 10 March 2024: 9 March is the last complete day.
const MORNING = new Date("2024-03-10T08:00:00+01:00");
const NEXT_MORNING = new Date("2024-03-11T08:00:00+01:00");
const LIST = "wl_hostile";

describe("coverage and item validation against a hostile registry", () => {
  let registry: HostileRegistry;
  let t: TestDatabase;

  beforeAll(async () => {
    registry = await startHostileRegistry({
      lists: [{ list_key: LIST, list_name: "hostile", created_at: "2024-03-01" }],
    });
  });
  afterEach(async () => {
    await t?.drop();
  });
  afterAll(async () => {
    await registry?.close();
  });

  const sync = (now: Date, extra: Record<string, string> = {}) =>
    runSyncJob(
      {
        sql: t.db.sql,
        config: loadConfig(hostileEnv(registry, extra)),
        log: silentLogger,
        trigger: "cli",
        now: () => now,
      },
      { kind: "sync" },
    );

  it("stores the valid items, sets aside impossible dates, bad tax ids and NULs, and leaves the window uncovered", async () => {
    t = await createTestDatabase();
    const base = registry.url;
    registry.set({
      changes: (q) =>
        changesAnswer(
          q.from,
          q.to,
          q.from === "2024-03-01"
            ? [
                item(base, "11111111", "2024-03-02"),
                item(base, "22222222", "2025-02-30"),
                item(base, "33333333", "2026-13-45"),
                item(base, "4444444", "2024-03-03"),
                item(base, "55555555", "2024-03-04", { chapter: "a\u0000b" }),
                item(base, "66666666", "2024-03-05", { changed_headings: ["bad \uFFFD bytes"] }),
              ]
            : [],
        ),
      file: () => ({ headers: { "content-type": "application/json" }, body: "{}" }),
    });
    const result = await sync(MORNING);
    expect(result.status).toBe("partial");
    expect(result.report?.invalidItems).toBe(5);
    expect(result.report?.errors.join("\n")).toMatch(
      /list (\S+ \()?wl_hostile\)? 2024-03-01\.\.2024-03-07: 5 invalid item/,
    );
    const stored = await t.db
      .sql`select tax_id, to_char(change_date, 'YYYY-MM-DD') as d from regwatch.changes`;
    expect([...stored]).toEqual([{ tax_id: "11111111", d: "2024-03-02" }]);
    const invalid = await t.db.sql`
      select tax_id, change_date, reason from regwatch.invalid_items where resolved_at is null order by tax_id`;
    expect(invalid.map((r) => r.tax_id)).toEqual(["22222222", "33333333", "4444444", "55555555", "66666666"]);
    expect(invalid[0]!.reason).toMatch(/2025-02-30.*not a calendar date/);
    // The rest of the run went on: the second window is covered, the first is not.
    expect(await coveredRanges(t.db.sql)).toEqual({ [LIST]: ["2024-03-08..2024-03-09"] });

    // status shows them.
    const status = await runCli(["status", "--json"], {
      DATABASE_URL: t.url,
      REGWATCH_TZ: "Europe/Budapest",
    });
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout).invalidItems.count).toBe(5);

    // A clean answer later covers the window and closes the invalid items.
    registry.set({ changes: (q) => changesAnswer(q.from, q.to, []) });
    const again = await sync(MORNING);
    expect(again.status).toBe("ok");
    expect(await coveredRanges(t.db.sql)).toEqual({ [LIST]: ["2024-03-01..2024-03-09"] });
    const [open] = await t.db
      .sql`select count(*)::int as n from regwatch.invalid_items where resolved_at is null`;
    expect(open!.n).toBe(0);
  }, 180_000);

  it("sets aside a change dated outside the asked interval, so it neither lands in changes nor covers the window", async () => {
    t = await createTestDatabase();
    const base = registry.url;
    registry.set({
      changes: (q) =>
        changesAnswer(
          q.from,
          q.to,
          q.from === "2024-03-01"
            ? [
                item(base, "11111111", "2024-03-02"),
                item(base, "22222222", "2999-01-01"),
                item(base, "33333333", "2024-02-20"),
              ]
            : [],
        ),
      file: () => ({ headers: { "content-type": "application/json" }, body: "{}" }),
    });
    const result = await sync(MORNING);
    expect(result.status).toBe("partial");
    expect(result.report?.invalidItems).toBe(2);
    const stored = await t.db.sql`select tax_id from regwatch.changes order by tax_id`;
    expect(stored.map((r) => r.tax_id)).toEqual(["11111111"]);
    const invalid = await t.db.sql`
      select tax_id, reason from regwatch.invalid_items where resolved_at is null order by tax_id`;
    expect(invalid.map((r) => r.tax_id)).toEqual(["22222222", "33333333"]);
    expect(invalid[0]!.reason).toMatch(/2999-01-01 is outside the asked interval 2024-03-01\.\.2024-03-07/);
    expect(invalid[1]!.reason).toMatch(/2024-02-20 is outside the asked interval/);
    expect(await coveredRanges(t.db.sql)).toEqual({ [LIST]: ["2024-03-08..2024-03-09"] });
  }, 180_000);

  it("coverage accept marks the days covered with the reason (exit 0), and refuses bad input with 64", async () => {
    t = await createTestDatabase();
    registry.set({
      changes: (q) => changesAnswer(q.from, q.to, [item(registry.url, "22222222", "2025-02-30")]),
      file: () => ({ headers: { "content-type": "application/json" }, body: "{}" }),
    });
    expect((await sync(MORNING)).status).toBe("partial");
    expect(await coveredRanges(t.db.sql)).toEqual({});
    const env = { DATABASE_URL: t.url };
    const ok = await runCli(
      ["coverage", "accept", LIST, "2024-03-01", "2024-03-09", "--reason", "registry confirmed a typo"],
      env,
    );
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/marked covered/);
    expect(await coveredRanges(t.db.sql)).toEqual({ [LIST]: ["2024-03-01..2024-03-09"] });
    const [row] = await t.db.sql`select accepted_reason from regwatch.coverage where list_key = ${LIST}`;
    expect(row!.accepted_reason).toBe("registry confirmed a typo");
    registry.asked.length = 0;
    expect((await sync(MORNING)).status).toBe("ok");
    // Only the lookback re-read; the accepted days are not asked as a gap any more.
    expect(registry.asked.every((a) => a.from >= "2024-03-01")).toBe(true);

    for (const args of [
      ["coverage", "accept", "no-such-list", "2024-03-01", "2024-03-02", "--reason", "x"],
      ["coverage", "accept", LIST, "2024-03-09", "2024-03-01", "--reason", "x"],
      ["coverage", "accept", LIST, "2024-02-30", "2024-03-01", "--reason", "x"],
      ["coverage", "accept", LIST, "2024-03-01", "2024-03-02", "--reason", "  "],
      ["coverage", "accept", LIST, "2024-03-01", "2024-03-02"],
    ]) {
      const bad = await runCli(args, env);
      expect(bad.code, args.join(" ")).toBe(64);
      expect(bad.stderr).not.toMatch(/\n\s+at /);
    }
  }, 180_000);

  it("coverage accept takes only days the answers left open, within the list's life and up to the last complete day", async () => {
    t = await createTestDatabase();
    // The first window's answer holds an invalid item; the second window (03-08..03-09) is covered.
    registry.set({
      changes: (q) =>
        changesAnswer(
          q.from,
          q.to,
          q.from <= "2024-03-02" ? [item(registry.url, "22222222", "2025-02-30")] : [],
        ),
      file: () => ({ headers: { "content-type": "application/json" }, body: "{}" }),
    });
    expect((await sync(MORNING)).status).toBe("partial");
    expect(await coveredRanges(t.db.sql)).toEqual({ [LIST]: ["2024-03-08..2024-03-09"] });
    const env = { DATABASE_URL: t.url };
    const accept = (from: string, to: string) =>
      runCli(["coverage", "accept", LIST, from, to, "--reason", "reviewed"], env);
    const refusals: [string, string, RegExp][] = [
      ["2020-01-01", "2099-12-31", /2020-01-01 is before the list was created/],
      ["2024-02-28", "2024-03-03", /2024-02-28 is before the list was created/],
      ["2024-03-06", "2024-03-09", /2024-03-08 is already covered/],
      ["2099-01-01", "2099-01-02", /2099-01-01 is not complete yet/],
    ];
    for (const [from, to, message] of refusals) {
      const bad = await accept(from, to);
      expect(bad.code, `${from}..${to}`).toBe(64);
      expect(bad.stderr).toMatch(message);
    }
    const today = new Date().toISOString().slice(0, 10);
    const future = await accept("2024-03-10", today);
    expect(future.code).toBe(64);
    expect(future.stderr).toMatch(/is not complete yet/);
    // Nothing of the refused ranges was marked covered.
    expect(await coveredRanges(t.db.sql)).toEqual({ [LIST]: ["2024-03-08..2024-03-09"] });
    const ok = await accept("2024-03-01", "2024-03-07");
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(await coveredRanges(t.db.sql)).toEqual({ [LIST]: ["2024-03-01..2024-03-09"] });
  }, 180_000);

  it("coverage accept counts a list's deletion day in the registry's zone", async () => {
    t = await createTestDatabase();
    registry.set({
      changes: (q) =>
        changesAnswer(
          q.from,
          q.to,
          q.from <= "2024-03-02" ? [item(registry.url, "22222222", "2025-02-30")] : [],
        ),
      file: () => ({ headers: { "content-type": "application/json" }, body: "{}" }),
    });
    expect((await sync(MORNING)).status).toBe("partial");
    // Deleted at 23:30 UTC on 4 March: 00:30 on the 5th in Budapest, the registry's zone.
    await t.db
      .sql`update regwatch.watch_lists set deleted_at = '2024-03-04T23:30:00Z' where list_key = ${LIST}`;
    const accept = (from: string, to: string) =>
      runCli(["coverage", "accept", LIST, from, to, "--reason", "reviewed"], { DATABASE_URL: t.url });
    const after = await accept("2024-03-06", "2024-03-06");
    expect(after.code).toBe(64);
    expect(after.stderr).toMatch(/2024-03-06 is after the list was deleted/);
    const ok = await accept("2024-03-01", "2024-03-05");
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
  }, 180_000);

  it("an answer claiming 1900-01-01..2099-12-31 covers only the asked, complete days; the next day asks the next day", async () => {
    t = await createTestDatabase();
    registry.set({ changes: () => changesAnswer("1900-01-01", "2099-12-31", []) });
    const result = await sync(MORNING);
    expect(result.status).toBe("ok");
    expect(await coveredRanges(t.db.sql)).toEqual({ [LIST]: ["2024-03-01..2024-03-09"] });
    const disagreements = result.report?.intervalDisagreements[LIST];
    expect(disagreements?.wider).toBe(2);
    expect(disagreements?.example).toMatch(
      /asked 2024-03-0\d\.\.2024-03-0\d, answered 1900-01-01\.\.2099-12-31/,
    );

    registry.asked.length = 0;
    const next = await sync(NEXT_MORNING, { REGWATCH_LOOKBACK_DAYS: "0" });
    expect(next.status).toBe("ok");
    expect(registry.asked).toEqual([{ listKey: LIST, from: "2024-03-10", to: "2024-03-10" }]);
    expect(await coveredRanges(t.db.sql)).toEqual({ [LIST]: ["2024-03-01..2024-03-10"] });

    const status = await runCli(["status"], { DATABASE_URL: t.url });
    expect(status.stdout).toMatch(/Answers for other days than asked/);
  }, 180_000);

  it("with REGWATCH_CHANGES_END_INCLUSIVE=false, asks end + 1 and covers up to the asked last day", async () => {
    t = await createTestDatabase();
    registry.asked.length = 0;
    // An exclusive-end registry answers with the end it was given.
    registry.set({ changes: (q) => changesAnswer(q.from, q.to, []) });
    const result = await sync(MORNING, { REGWATCH_CHANGES_END_INCLUSIVE: "false" });
    expect(result.status).toBe("ok");
    expect(registry.asked.map((a) => `${a.from}..${a.to}`)).toEqual([
      "2024-03-01..2024-03-08",
      "2024-03-08..2024-03-10",
    ]);
    expect(await coveredRanges(t.db.sql)).toEqual({ [LIST]: ["2024-03-01..2024-03-09"] });
    expect(result.report?.intervalDisagreements).toEqual({});
  }, 180_000);

  it("the 07:00 rule follows REGWATCH_REGISTRY_TZ, not the schedule's REGWATCH_TZ", async () => {
    t = await createTestDatabase();
    registry.asked.length = 0;
    registry.set({ changes: (q) => changesAnswer(q.from, q.to, []) });
    // 07:30 in Budapest is 01:30 in New York: the registry's load of 9 March is done.
    const result = await sync(new Date("2024-03-10T07:30:00+01:00"), { REGWATCH_TZ: "America/New_York" });
    expect(result.report?.lastComplete).toBe("2024-03-09");
    expect(registry.asked.at(-1)?.to).toBe("2024-03-09");
  }, 180_000);
});

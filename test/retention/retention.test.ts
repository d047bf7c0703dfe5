/**
 * `regwatch retention` as users run it, on real Postgres: the dry run counts per kind and changes
 * nothing; apply removes or pseudonymises only what is older than the policy, in several committed
 * batches, records each kind without any removed value, and a second apply does nothing; the
 * change feed and the BI views read a removed name as removed; the daemon applies it once a day.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, registryDay } from "../../src/dates.ts";
import { startDaemon } from "../daemon/harness.ts";
import { accountSql, prepareFleet, writeAccountsFile } from "../fleet-daemon/fleet-fixture.ts";
import { BIN, runCli } from "../helpers/cli.ts";
import { createUser, getPage, signIn, startWebProcess } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { KEPT_NAMES, OLD_NAMES, seedPersonalData } from "./seed.ts";

const today = registryDay("Europe/Budapest");
const recent = addDays(today, -10);
const TABLES = [
  "change_values",
  "businesses",
  "business_profiles",
  "change_files",
  "payment_batches",
  "payment_checks",
  "held_uploads",
  "alert_deliveries",
  "console_login_failures",
] as const;

let test: TestDatabase;
let env: Record<string, string>;

beforeAll(async () => {
  test = await createTestDatabase();
  await seedPersonalData(test.db.sql, recent);
  env = { DATABASE_URL: test.url, REGWATCH_RETENTION_BATCH: "2", REGWATCH_TZ: "Europe/Budapest" };
}, 60_000);
afterAll(async () => test?.drop());

/** Every row of the tables that hold personal data, as text. */
async function everything(): Promise<string> {
  const parts: string[] = [];
  for (const table of TABLES) {
    const rows = await test.db.sql<{ row: string }[]>`
      select t::text as row from ${test.db.sql.t[table]} t order by t::text`;
    parts.push(`${table}: ${rows.map((r) => r.row).join("\n")}`);
  }
  return parts.join("\n");
}

const EXPECTED = {
  representatives: 5,
  sole_proprietors: 2,
  change_bodies: 1,
  payment_rows: 4,
  payment_files: 1,
  alert_replies: 1,
  sign_ins: 1,
};

interface Pass {
  today: string;
  kinds: { kind: string; count: number; batches: number; action: string; before: string }[];
}
const counts = (pass: Pass) => Object.fromEntries(pass.kinds.map((k) => [k.kind, k.count]));

describe("regwatch retention", () => {
  it("refuses to run without --dry-run or apply (64)", async () => {
    const bare = await runCli(["retention"], env);
    expect(bare.code).toBe(64);
    expect(bare.stderr).toContain("--dry-run");
    const bad = await runCli(["retention", "purge"], env);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('"purge"');
    const days = await runCli(["retention", "--dry-run"], { ...env, REGWATCH_RETAIN_SIGN_INS_DAYS: "0" });
    expect(days.code).toBe(78);
    expect(days.stderr).toContain("REGWATCH_RETAIN_SIGN_INS_DAYS");
  });

  it("the dry run counts per kind and changes nothing", async () => {
    const before = await everything();
    const result = await runCli(["retention", "--dry-run", "--json"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const pass = JSON.parse(result.stdout) as Pass;
    expect(counts(pass)).toEqual(EXPECTED);
    expect(await everything()).toBe(before);
    const [runs] = await test.db.sql<
      { n: number }[]
    >`select count(*)::int as n from ${test.db.sql.t.retention_runs}`;
    expect(runs!.n).toBe(0);
    const text = await runCli(["retention", "--dry-run"], env);
    expect(text.stdout).toMatch(/representatives\s+5 would be pseudonymised/);
    expect(text.stdout).toMatch(/payment_rows\s+4 would be removed/);
  });

  it("apply removes only what is older than the policy, in batches, and records it without the values", async () => {
    const result = await runCli(["retention", "apply", "--json"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const pass = JSON.parse(result.stdout) as Pass;
    expect(counts(pass)).toEqual(EXPECTED);
    const batches = Object.fromEntries(pass.kinds.map((k) => [k.kind, k.batches]));
    // Batches of two rows: three rows of payments then their batch, and three steps of names.
    expect(batches.payment_rows).toBe(3);
    expect(batches.representatives).toBe(3);

    const all = await everything();
    for (const name of OLD_NAMES) expect(all, name).not.toContain(name);
    for (const name of KEPT_NAMES) expect(all, name).toContain(name);
    expect(all).toContain("Friss Fanni");
    expect(all).toContain("fresh reply");

    const recorded = await test.db.sql<{ kind: string; count: number; policy: string; trigger: string }[]>`
      select kind, count, policy, trigger from ${test.db.sql.t.retention_runs} order by id`;
    expect(Object.fromEntries(recorded.map((r) => [r.kind, r.count]))).toEqual(EXPECTED);
    expect(recorded.every((r) => r.trigger === "cli")).toBe(true);
    expect(recorded.find((r) => r.kind === "payment_rows")!.policy).toBe(
      `payment_rows: 2922 days (before ${addDays(today, -2922)})`,
    );
    const record = JSON.stringify(recorded);
    for (const name of [...OLD_NAMES, ...KEPT_NAMES]) expect(record).not.toContain(name);

    const kept = await test.db.sql<{ path: string; removed: string | null; has: boolean }[]>`
      select path, body_removed_on::text as removed, (body_json is not null) as has
      from ${test.db.sql.t.change_files} order by path`;
    expect(kept).toEqual([
      { path: "/files/new-parsed.json", removed: null, has: true },
      { path: "/files/old-parsed.json", removed: today, has: false },
      { path: "/files/old-unparsed.json", removed: null, has: true },
    ]);
  });

  it("a removed name reads as removed in the BI views and the change feed, not as missing", async () => {
    const marker = { removed: "retention", on: today };
    const views = await test.db.sql<{ change_date: string; old_value: unknown; new_value: unknown }[]>`
      select change_date::text, old_value, new_value from ${test.db.sql.t.v_heading_changes}
      where tax_id = '11111111' order by change_date`;
    expect(views).toEqual([
      { change_date: "2018-01-10", old_value: marker, new_value: marker },
      { change_date: "2019-03-01", old_value: marker, new_value: [{ name: "Szabó Cecília" }] },
      { change_date: recent, old_value: [{ name: "Szabó Cecília" }], new_value: [{ name: "Tóth Dénes" }] },
    ]);
    const [asOf] = await test.db.sql<{ value: unknown }[]>`
      select ${test.db.sql.t.business_as_of}('11111111', '2018-06-01') -> 'representatives' as value`;
    expect(asOf!.value).toEqual(marker);
    const [sole] = await test.db.sql<{ full_name: string; bank: unknown; type: string }[]>`
      select full_name, record -> 'bank_accounts' as bank, type from ${test.db.sql.t.businesses} where tax_id = '44444444'`;
    expect(sole).toEqual({
      full_name: "(removed under retention policy)",
      bank: ["11773016-11111111-00000000"],
      type: "self_employed",
    });

    const feed = await runCli(["changes", "--tax-id", "11111111", "--since", "2018-01-01"], env);
    expect(feed.code).toBe(0);
    expect(feed.stdout).toContain(
      `representatives: (removed under retention policy on ${today}) → (removed under retention policy on ${today})`,
    );
    expect(feed.stdout).toContain(
      `representatives: (removed under retention policy on ${today}) → Szabó Cecília`,
    );
  });

  it("the business page shows a removed name as removed, in both languages", async () => {
    await createUser(test.db, "anna", "reader", undefined, "hu");
    await createUser(test.db, "bob", "reader", undefined, "en");
    const web = await startWebProcess(BIN, { DATABASE_URL: test.url, REGWATCH_TZ: "Europe/Budapest" });
    try {
      const hu = await (
        await getPage(`${web.url}/businesses/11111111`, await signIn(web.url, "anna"))
      ).text();
      expect(hu).toContain(`(a megőrzési szabály szerint törölve: ${today})`);
      expect(hu).toContain("Szabó Cecília");
      const en = await (await getPage(`${web.url}/businesses/11111111`, await signIn(web.url, "bob"))).text();
      expect(en).toContain(`(removed under the retention policy on ${today})`);
      const sole = await (
        await getPage(`${web.url}/businesses/44444444`, await signIn(web.url, "anna"))
      ).text();
      expect(sole).toContain("(a megőrzési szabály szerint törölve)");
      expect(sole).not.toContain("Egyéni Erzsébet");
      const leftover = sole.split("\n").filter((l) => l.includes("(removed under retention policy)"));
      expect(leftover).toEqual([]);
    } finally {
      await web.stop();
    }
  }, 60_000);

  it("applying twice does nothing the second time", async () => {
    const before = await everything();
    const result = await runCli(["retention", "apply", "--json"], env);
    expect(result.code).toBe(0);
    const pass = JSON.parse(result.stdout) as Pass;
    expect(Object.values(counts(pass))).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(await everything()).toBe(before);
  });
});

describe("the daemon", () => {
  it("applies the policy once a day", async () => {
    const own = await createTestDatabase();
    try {
      await seedPersonalData(own.db.sql, recent);
      const daemonEnv = {
        DATABASE_URL: own.url,
        REGWATCH_TZ: "Europe/Budapest",
        REGWATCH_LOG_LEVEL: "debug",
        // Nothing answers there: the catch-up sync fails, the retention pass does not depend on it.
        REGWATCH_WATCH_URL: "http://127.0.0.1:9",
        REGWATCH_API_KEY: "k",
        REGWATCH_MAX_ATTEMPTS: "1",
      };
      const first = startDaemon(daemonEnv);
      try {
        const applied = await first.waitFor((l) => l.msg === "retention policy applied");
        expect(applied.retention).toEqual(EXPECTED);
      } finally {
        await first.stop();
      }
      // A restart the same day finds today's pass and does not repeat it.
      const second = startDaemon(daemonEnv);
      try {
        await second.waitFor((l) => l.msg === "retention: today's pass already ran");
      } finally {
        await second.stop();
      }
      const runs = await own.db.sql<{ trigger: string; n: number }[]>`
        select trigger, count(*)::int as n from ${own.db.sql.t.retention_runs} group by trigger`;
      expect(runs).toEqual([{ trigger: "schedule", n: 7 }]);
      const all = await (async () => {
        const rows = await own.db.sql<
          { row: string }[]
        >`select t::text as row from ${own.db.sql.t.change_values} t`;
        return rows.map((r) => r.row).join("\n");
      })();
      expect(all).not.toContain("Kovács Anna");
    } finally {
      await own.drop();
    }
  }, 120_000);
});

describe("the fleet daemon", () => {
  it("applies the policy in every account's schema and the home's", async () => {
    const own = await createTestDatabase();
    const files = writeAccountsFile([
      { name: "alpha", watch_url: "http://127.0.0.1:9", api_key_env: "ALPHA_KEY" },
      { name: "beta", watch_url: "http://127.0.0.1:9", api_key_env: "BETA_KEY" },
    ]);
    try {
      await prepareFleet(own.url, ["alpha", "beta"]);
      const alpha = accountSql(own.url, "alpha");
      try {
        await seedPersonalData(alpha, recent);
      } finally {
        await alpha.end();
      }
      const fleet = startDaemon(
        {
          DATABASE_URL: own.url,
          REGWATCH_ACCOUNTS_FILE: files.accountsFile,
          ALPHA_KEY: "alpha-key",
          BETA_KEY: "beta-key",
          REGWATCH_TZ: "Europe/Budapest",
          REGWATCH_LOG_LEVEL: "debug",
        },
        ["--no-worker"],
      );
      try {
        const passes = await Promise.all(
          ["regwatch", "regwatch_alpha", "regwatch_beta"].map((schema) =>
            fleet.waitFor((l) => l.msg === "retention policy applied" && l.schema === schema),
          ),
        );
        const zero = Object.fromEntries(Object.keys(EXPECTED).map((k) => [k, 0]));
        expect(passes.map((p) => p.retention)).toEqual([zero, EXPECTED, zero]);
      } finally {
        await fleet.stop();
      }
    } finally {
      files.remove();
      await own.drop();
    }
  }, 120_000);
});

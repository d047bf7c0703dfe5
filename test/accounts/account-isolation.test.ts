/**
 * Two accounts, two emulators with different keys: a command run with `--account a` reads and
 * writes schema regwatch_a only and sends only a's key, to a's registry only; a session opened
 * for one account cannot reach another account's tables by their plain names.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, localDateTime } from "../../src/dates.ts";
import { openDatabase } from "../../src/db/connect.ts";
import type { RequestLogEntry } from "../../src/emulator/index.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type EmulatorProcess, startEmulatorProcess } from "../helpers/emulator-process.ts";

const TZ = "Europe/Budapest";
const today = localDateTime(new Date(), TZ).date;
let registryA: EmulatorProcess;
let registryB: EmulatorProcess;
let t: TestDatabase;
let env: Record<string, string>;

beforeAll(async () => {
  [registryA, registryB] = await Promise.all([
    startEmulatorProcess(["--seed", "31", "--businesses", "2000", "--api-key", "key-of-registry-a"]),
    startEmulatorProcess(["--seed", "32", "--businesses", "2000", "--api-key", "key-of-registry-b"]),
  ]);
  const records = await registryA.admin<{ tax_id: string; type: string }[]>("businesses?limit=200");
  const ids = records.filter((r) => r.type !== "budget_orgs").map((r) => r.tax_id);
  await registryA.admin("lists", {
    name: "suppliers",
    createdAt: addDays(today, -20),
    taxIds: ids.slice(0, 40),
  });
  t = await createTestDatabase();
  const file = path.join(mkdtempSync(path.join(tmpdir(), "regwatch-isolation-")), "accounts.json");
  writeFileSync(
    file,
    JSON.stringify({
      accounts: [
        { name: "a", watch_url: registryA.watchUrl, api_key_env: "A_KEY" },
        { name: "b", watch_url: registryB.watchUrl, api_key_env: "B_KEY" },
      ],
    }),
  );
  env = {
    DATABASE_URL: t.url,
    REGWATCH_ACCOUNTS_FILE: file,
    REGWATCH_TZ: TZ,
    A_KEY: registryA.apiKey,
    B_KEY: registryB.apiKey,
    // Set, but never used for an account of the file.
    REGWATCH_WATCH_URL: registryB.watchUrl,
    REGWATCH_API_KEY: "global-key-not-for-accounts",
  };
});
afterAll(async () => {
  await t?.drop();
  await Promise.all([registryA?.stop(), registryB?.stop()]);
});

async function count(table: string, schema: string): Promise<number> {
  const [row] = await t.db.sql<
    { n: number }[]
  >`select count(*)::int as n from ${t.db.sql(schema)}.${t.db.sql(table)}`;
  return row!.n;
}

describe("one account's command", () => {
  it("sync --account a writes regwatch_a only and calls a's registry with a's key only", async () => {
    const result = await runCli(["sync", "--account", "a"], env, 120_000);
    expect(result.stderr).not.toMatch(/regwatch: /);
    expect(result.code).toBe(0);
    expect(await count("watch_lists", "regwatch_a")).toBe(1);
    expect(await count("runs", "regwatch_a")).toBe(1);
    expect(await count("changes", "regwatch_a")).toBeGreaterThan(0);
    expect(await count("runs", "regwatch")).toBe(0);
    expect(await count("watch_lists", "regwatch")).toBe(0);
    // Nothing of b was opened: its schema is not even created yet.
    const [b] = await t.db.sql<
      { exists: boolean }[]
    >`select to_regclass('regwatch_b.runs') is not null as exists`;
    expect(b!.exists).toBe(false);

    const logA = await registryA.admin<RequestLogEntry[]>("requests");
    expect(logA.length).toBeGreaterThan(0);
    expect(logA.every((r) => r.keyValid)).toBe(true);
    expect(await registryB.admin<RequestLogEntry[]>("requests")).toEqual([]);
  });

  it("alerts and changes of b neither see nor touch a's rows", async () => {
    const since = addDays(today, -30);
    const feedA = await runCli(["changes", "--account", "a", "--since", since, "--json"], env);
    expect(feedA.code).toBe(0);
    expect((JSON.parse(feedA.stdout) as unknown[]).length).toBeGreaterThan(0);
    const feedB = await runCli(["changes", "--account", "b", "--since", since, "--json"], env);
    expect(feedB.code).toBe(0);
    expect(JSON.parse(feedB.stdout)).toEqual([]);

    const added = await runCli(
      [
        "alerts",
        "rule",
        "add",
        "b-rule",
        "--channel",
        "notify",
        "--target",
        "b_channel",
        "--account",
        "b",
        "--by",
        "t",
      ],
      env,
    );
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    expect(await count("alert_rules", "regwatch_b")).toBe(1);
    expect(await count("alert_rules", "regwatch_a")).toBe(0);
    const listA = await runCli(["alerts", "rule", "list", "--account", "a"], env);
    expect(listA.stdout).toBe("no alert rules\n");
    const listB = await runCli(["alerts", "rule", "list", "--account", "b", "--json"], env);
    expect((JSON.parse(listB.stdout) as { name: string }[]).map((r) => r.name)).toEqual(["b-rule"]);
  });
});

describe("an account's session", () => {
  it("names its own schema's tables only, on a session that finds no account's table unqualified", async () => {
    // regwatch_b was created by the alerts command above.
    await t.db.sql`insert into regwatch_b.desired_lists (list_name) values ('only-in-b')`;
    const a = await openDatabase({ databaseUrl: t.url, dataDir: "", schema: "regwatch_a" });
    try {
      const [schemas] = await a.sql<{ s: string[] }[]>`select current_schemas(false) as s`;
      expect(schemas!.s).not.toContain("regwatch_a");
      expect(a.sql.schema).toBe("regwatch_a");
      const names = await a.sql<{ list_name: string }[]>`select list_name from ${a.sql.t.desired_lists}`;
      expect(names.map((r) => r.list_name)).not.toContain("only-in-b");
      const [runs] = await a.sql<{ n: number }[]>`select count(*)::int as n from ${a.sql.t.runs}`;
      expect(runs!.n).toBe(await count("runs", "regwatch_a"));
    } finally {
      await a.close();
    }
  });
});

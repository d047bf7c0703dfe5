/**
 * The CLI's side of the languages and the one zone: `users add --locale`, `users set-locale`,
 * and `users list` and `status` showing instants in REGWATCH_TZ with the zone said (text) or
 * its offset written (JSON), never an unlabelled UTC time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliResult, runCli, runCliWithInput } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const PASSWORD = "a long enough pass phrase";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.drop();
});

const env = (more: Record<string, string> = {}) => ({ DATABASE_URL: t.url, ...more });
const users = (args: string[], input?: string): Promise<CliResult> =>
  input === undefined ? runCli(["users", ...args], env()) : runCliWithInput(["users", ...args], env(), input);
const localeOf = async (name: string) =>
  (
    await t.db.sql<
      { locale: string | null }[]
    >`select locale from regwatch.console_users where name = ${name}`
  )[0]?.locale;

describe("a user's language from the command line", () => {
  it("is stored by users add --locale and changed by users set-locale", async () => {
    expect(
      (
        await users(
          ["add", "hanna", "--role", "reader", "--locale", "hu", "--password-stdin"],
          `${PASSWORD}\n`,
        )
      ).code,
    ).toBe(0);
    expect(await localeOf("hanna")).toBe("hu");
    const bad = await users(
      ["add", "otto", "--role", "reader", "--locale", "de", "--password-stdin"],
      `${PASSWORD}\n`,
    );
    expect(bad.code).toBe(64);
    expect(bad.stderr).toMatch(/en, hu/);

    const english = await users(["set-locale", "hanna", "en"]);
    expect(english.code).toBe(0);
    expect(english.stdout).toContain("hanna sees the console in en");
    expect(await localeOf("hanna")).toBe("en");
    expect((await users(["set-locale", "hanna", "browser"])).code).toBe(0);
    expect(await localeOf("hanna")).toBeNull();
    const refused = await users(["set-locale", "hanna", "fr"]);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('locale "fr" must be one of en, hu or browser');
    expect((await users(["set-locale", "nobody", "hu"])).code).toBe(64);
  });

  it("users list shows the language and the times in REGWATCH_TZ with its offset", async () => {
    await t.db.sql`update regwatch.console_users set created_at = '2026-11-27T06:15:00Z', locale = 'hu'`;
    const listed = await users(["list"]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^NAME\s+ROLE\s+LANGUAGE\s+ADDED/);
    expect(listed.stdout).toMatch(/hanna\s+reader\s+hu\s+2026-11-27T07:15:00\.000\+01:00/);
    const utc = await runCli(["users", "list"], env({ REGWATCH_TZ: "UTC" }));
    expect(utc.stdout).toContain("2026-11-27T06:15:00.000+00:00");
    expect(utc.stdout).not.toMatch(/\d\dZ\b/);
  });
});

describe("status in one zone", () => {
  it("labels its times with REGWATCH_TZ's zone in text and writes offsets in JSON", async () => {
    await t.db.sql`
      insert into regwatch.runs (kind, trigger, status, stats, started_at, finished_at)
      values ('sync', 'cli', 'ok', '{}', '2026-11-27T06:15:03Z', '2026-11-27T06:15:09Z')`;
    const text = await runCli(["status"], env());
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^regwatch status at \d{4}-\d{2}-\d{2} \d{2}:\d{2} (CET|CEST);/);
    expect(text.stdout).toMatch(/sync\s+cli\s+ok\s+2026-11-27 07:15:03 CET/);
    const json = await runCli(["status", "--json"], env());
    expect(json.code).toBe(0);
    const status = JSON.parse(json.stdout) as { generatedAt: string; runs: { startedAt: string }[] };
    expect(status.generatedAt).toMatch(/T\d{2}:\d{2}:\d{2}\.\d{3}\+0[12]:00$/);
    expect(status.runs.map((r) => r.startedAt)).toContain("2026-11-27T07:15:03.000+01:00");
  });
});

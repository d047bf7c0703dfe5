/**
 * The console holds one bounded pool for all accounts (issue 38): eight users viewing eight
 * accounts at once never open more than ACCOUNTS_POOL account connections (counted in
 * pg_stat_activity), and once idle none stays open; an account whose schema is behind answers
 * with a page saying to run `regwatch migrate`, and nothing is migrated by the request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { grantAccounts } from "../../src/console/access.ts";
import { type Database, openDatabase } from "../../src/db/connect.ts";
import { silentLogger } from "../../src/logger.ts";
import { ACCOUNTS_POOL } from "../../src/web/account-directory.ts";
import { type RunningConsole, startConsole } from "../../src/web/server.ts";
import { createUser, getPage, postForm, type SignedIn, signIn } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { openAccount, writeAccountsFile } from "./accounts-fixture.ts";

const VIEWED = ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8"];
/** Connections the console's home pool may open, and the test's own one counting them. */
const HOME_POOL = 2;

let t: TestDatabase;
let home: Database;
let web: RunningConsole;
let user: SignedIn;
/** One user per viewed account, each with that account chosen. */
const viewers: SignedIn[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  for (const name of VIEWED) await (await openAccount(t.url, name)).close();
  home = await openDatabase({ databaseUrl: t.url, dataDir: "" }, { max: HOME_POOL });
  const config = loadConfig({
    DATABASE_URL: t.url,
    REGWATCH_ACCOUNTS_FILE: writeAccountsFile([...VIEWED, "late"]),
  });
  web = await startConsole(
    { db: home, config, log: silentLogger, now: () => new Date(), accountIdleMs: 300 },
    { host: "127.0.0.1", port: 0 },
  );
  await createUser(home, "olga", "reader");
  await grantAccounts(home.sql, "olga", [...VIEWED, "late"]);
  user = await signIn(web.url, "olga");
  for (const name of VIEWED) {
    await createUser(home, `viewer_${name}`, "reader");
    await grantAccounts(home.sql, `viewer_${name}`, [name]);
    const viewer = await signIn(web.url, `viewer_${name}`);
    expect((await postForm(`${web.url}/account`, viewer, { account: name, return: "/" })).status).toBe(303);
    viewers.push(viewer);
  }
}, 120_000);
afterAll(async () => {
  await web?.close();
  await home?.close();
  await t?.drop();
});

/** Every connection to the test database but the one asking. */
async function connections(): Promise<number> {
  const [row] = await t.db.sql<{ n: number }[]>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid()`;
  return row!.n;
}

async function settlesAtMost(limit: number): Promise<number> {
  const deadline = Date.now() + 15_000;
  let count = await connections();
  while (count > limit && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    count = await connections();
  }
  return count;
}

describe("account pools", () => {
  it("share one bounded pool: eight accounts viewed at once hold at most ACCOUNTS_POOL connections, none once idle", async () => {
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await connections());
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    try {
      for (let round = 0; round < 3; round++) {
        const pages = await Promise.all(
          VIEWED.flatMap((name, i) =>
            ["/changes", "/", "/changes"].map(async (path) => {
              const page = await getPage(`${web.url}${path}`, viewers[i]!);
              await page.text();
              return { name, status: page.status };
            }),
          ),
        );
        for (const page of pages)
          expect({ name: page.name, status: page.status }).toEqual({ name: page.name, status: 200 });
      }
    } finally {
      sampling = false;
      await sampler;
    }
    // The home pool, the accounts' one, and the test's own connection counting them.
    expect(peak).toBeLessThanOrEqual(HOME_POOL + ACCOUNTS_POOL + 1);
    expect(await settlesAtMost(HOME_POOL + 1)).toBeLessThanOrEqual(HOME_POOL + 1);
  });

  it("answers a page saying to migrate for an account whose schema is behind, and migrates nothing", async () => {
    await postForm(`${web.url}/account`, user, { account: "late", return: "/" });
    const page = await getPage(`${web.url}/`, user);
    const body = await page.text();
    expect(page.status).toBe(503);
    expect(body).toContain("Database schema behind");
    expect(body).toContain("run `regwatch migrate`");
    const [schema] = await t.db.sql<{ exists: boolean }[]>`
      select to_regnamespace('regwatch_late') is not null as exists`;
    expect(schema!.exists).toBe(false);
    const [journal] = await t.db.sql<{ exists: boolean }[]>`
      select to_regclass('drizzle.__drizzle_migrations_regwatch_late') is not null as exists`;
    expect(journal!.exists).toBe(false);
    // The user can still switch away from it.
    const back = await postForm(`${web.url}/account`, user, { account: "a1", return: "/" });
    expect(back.status).toBe(303);
    expect((await getPage(`${web.url}/`, user)).status).toBe(200);
  });
});

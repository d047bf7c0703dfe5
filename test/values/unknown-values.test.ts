/**
 * Issue 35, points 1 and 2, through the product's own paths: the emulator serves a change file
 * whose entry leaves old_value out (with a label beside the values), and a later status or name
 * change whose file no reader knows; a sync stores them. The entry's new value is kept with its
 * old value unknown (feed, console); a heading whose latest change could not be read is unknown
 * since that day (profile in the console, `changes`), and the payment guard holds as unverified
 * instead of asserting the older value.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { runCli } from "../helpers/cli.ts";
import {
  createUser,
  getPage,
  type SignedIn,
  signIn,
  startTestConsole,
  type TestConsole,
} from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorConfig, seedList, syncAt } from "../helpers/sync.ts";
import { account, daysAgo, type JsonReport, writeBatch } from "../payments/fixtures.ts";

let test: TestDatabase;
let emulator: RunningEmulator;
let web: TestConsole;
let session: SignedIn;
let dir: string;
let env: Record<string, string>;
const ids = { status: "", name: "", address: "" };
let nameAccount = "";

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "regwatch-unknown-values-"));
  test = await createTestDatabase();
  emulator = await startEmulator({
    seed: 35,
    businesses: 400,
    now: new Date().toISOString(),
    frozenClock: true,
    rateLimit: 100,
    changesPerBusinessPerMonth: 0,
  });
  const companies = emulator
    .sampleBusinesses({ type: "companies", limit: 200 })
    .filter((r) => r.status_code === 1 && (r.bank_accounts as unknown[]).length > 0)
    .slice(0, 3);
  [ids.status, ids.name, ids.address] = companies.map((r) => String(r.tax_number).slice(0, 8)) as [
    string,
    string,
    string,
  ];
  nameAccount = (companies[1]!.bank_accounts as Array<{ bank_account: string }>)[0]!.bank_account;
  await seedList(emulator, {
    name: "suppliers",
    createdAt: daysAgo(20),
    taxIds: [ids.status, ids.name, ids.address],
  });
  // Status: ceased (read), then operating again in a file no reader knows.
  emulator.addChange({
    tax_id: ids.status,
    change: daysAgo(6),
    chapter: "general",
    file: "own",
    values: [{ heading: "status", old_value: 1, new_value: 0 }],
  });
  emulator.addChange({
    tax_id: ids.status,
    change: daysAgo(2),
    chapter: "general",
    file: "own",
    unreadable: true,
    values: [{ heading: "status", old_value: 0, new_value: 1 }],
  });
  // Name: an account and a name that are read, then a name change that is not.
  emulator.addChange({
    tax_id: ids.name,
    change: daysAgo(10),
    chapter: "finance",
    file: "own",
    values: [{ heading: "bank_accounts", old_value: [], new_value: [{ bank_account: nameAccount }] }],
  });
  emulator.addChange({
    tax_id: ids.name,
    change: daysAgo(6),
    chapter: "general",
    file: "own",
    values: [
      { heading: "long_name", old_value: "Alfa Kereskedelmi Kft.", new_value: "Béta Kereskedelmi Kft." },
    ],
  });
  emulator.addChange({
    tax_id: ids.name,
    change: daysAgo(2),
    chapter: "general",
    file: "own",
    unreadable: true,
    values: [
      { heading: "long_name", old_value: "Béta Kereskedelmi Kft.", new_value: "Gamma Szolgáltató Kft." },
    ],
  });
  // An entry without old_value, a person's label beside the values.
  emulator.addChange({
    tax_id: ids.address,
    change: daysAgo(4),
    chapter: "general",
    file: "own",
    values: [
      {
        heading: "address",
        new_value: "1111 Budapest, Fő utca 1.",
        label: "Székhely: 1111 Budapest, Fő utca 1.",
      },
    ],
  });
  const synced = await syncAt(test.db.sql, emulatorConfig(emulator), emulator);
  expect(synced.error).toBeUndefined();
  env = { DATABASE_URL: test.url };
  web = await startTestConsole(test.db);
  await createUser(test.db, "anna", "reader");
  session = await signIn(web.url, "anna");
}, 120_000);

afterAll(async () => {
  await web?.close();
  await emulator?.close();
  await test?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function page(taxId: string): Promise<string> {
  const answer = await getPage(`${web.url}/businesses/${taxId}`, session);
  expect(answer.status).toBe(200);
  return answer.text();
}

describe("an entry without old_value", () => {
  it("keeps the new value, with the old value unknown rather than null", async () => {
    const files = await test.db.sql<{ parse_status: string }[]>`
      select f.parse_status from regwatch.change_files f
      join regwatch.changes c on c.path = f.path where c.tax_id = ${ids.address}`;
    expect(files.map((f) => f.parse_status)).toEqual(["parsed"]);
    const values = await test.db.sql<{ old_value: unknown; old_value_known: boolean; new_value: unknown }[]>`
      select old_value, old_value_known, new_value from regwatch.change_values where tax_id = ${ids.address}`;
    expect(values).toEqual([
      { old_value: null, old_value_known: false, new_value: "1111 Budapest, Fő utca 1." },
    ]);
  });

  it("is said to be unknown by `changes` and the console, and the new value reaches the profile", async () => {
    const json = await runCli(["changes", "--since", daysAgo(10), "--tax-id", ids.address, "--json"], env);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject([
      { heading: "address", oldValue: null, oldValueKnown: false, newValue: "1111 Budapest, Fő utca 1." },
    ]);
    const text = await runCli(["changes", "--since", daysAgo(10), "--tax-id", ids.address], env);
    expect(text.stdout).toContain("address: (old value not given) → 1111 Budapest, Fő utca 1.");
    const html = await page(ids.address);
    expect(html).toContain("(old value not given)");
    expect(html).toContain("1111 Budapest, Fő utca 1.");
  });

  it("leaves a file of a layout no reader knows unrecognised", async () => {
    const files = await test.db.sql<{ parse_status: string }[]>`
      select f.parse_status from regwatch.change_files f
      join regwatch.changes c on c.path = f.path
      where c.tax_id = ${ids.status} and c.change_date = ${daysAgo(2)}::date`;
    expect(files.map((f) => f.parse_status)).toEqual(["unrecognised"]);
  });
});

describe("a heading whose latest change was not read", () => {
  it("is unknown since that day in the console's profile and in `changes`", async () => {
    // The console writes the day in its language's words (English: "25 Nov 2026").
    const shown = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "short",
      year: "numeric",
      timeZone: "UTC",
    }).format(new Date(`${daysAgo(2)}T00:00:00Z`));
    const html = await page(ids.status);
    expect(html).toContain(`unknown since ${shown} (changed, not read)`);
    expect(html).not.toContain("status: <strong>ceased");
    const named = await page(ids.name);
    expect(named).toContain(`unknown since ${shown} (changed, not read)`);
    const text = await runCli(["changes", "--since", daysAgo(10), "--tax-id", ids.status], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain("status: changed, not read (its change file's format is not recognised)");
    expect(text.stdout).toContain("status: operating → ceased");
  });

  it("holds a payment as unverified instead of asserting the older status or name", async () => {
    const file = await writeBatch(dir, "batch.csv", [
      "tax_id,bank_account,name",
      `${ids.status},${account(4242)},`,
      `${ids.name},${nameAccount},Gamma Szolgáltató Kft.`,
    ]);
    const result = await runCli(["payments", "check", file, "--json", "--hold-days", "5"], env);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(2);
    const [status, name] = (JSON.parse(result.stdout) as JsonReport).rows;
    expect(status).toMatchObject({ verdict: "status_unverified" });
    expect(status!.detail).toContain(
      `the business's status is not verified: it changed on ${daysAgo(2)} and regwatch could not read the change (its change file's format is not recognised)`,
    );
    expect(status!.next_step).toContain("re-read it online");
    expect(name).toMatchObject({ verdict: "name_unverified" });
    expect(name!.detail).toContain(
      `its name changed on ${daysAgo(2)} and regwatch could not read that change`,
    );
    expect(name!.next_step).toContain("--online");
  });
});

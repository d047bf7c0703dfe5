/**
 * Issue 49, point 10: the business page, the inbox, the payment guard and `lookup` give one status,
 * the newest dated evidence's, with its day. A search read says "operating"; a change file that
 * regwatch learns of after it (dated the registry's day of the read) says ceased: all four say
 * ceased, and the guard's verdict is business_ceased, not an account verdict. In the reverse order
 * (a change of the day before, learnt before a search read) the search record wins everywhere.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import { runCli } from "../helpers/cli.ts";
import { createUser, type SignedIn, signIn, startTestConsole, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { emulatorEnv } from "../helpers/sync.ts";

const TZ = "Europe/Budapest";

interface Payee {
  taxId: string;
  registration: string;
  account: string;
}

describe("the newest dated evidence gives a business's status everywhere", () => {
  let t: TestDatabase;
  let emulator: RunningEmulator;
  let web: TestConsole;
  let reader: SignedIn;
  let env: Record<string, string>;
  let dir: string;
  let payees: Payee[];
  let ruleId: number;

  beforeAll(async () => {
    t = await createTestDatabase();
    emulator = await startEmulator({
      seed: 23,
      businesses: 300,
      now: "2024-03-10T08:00:00+01:00",
      frozenClock: true,
    });
    env = { ...emulatorEnv(emulator), DATABASE_URL: t.url, REGWATCH_REGISTRY_TZ: TZ };
    payees = emulator
      .sampleBusinesses({ type: "companies", limit: 200 })
      .filter(
        (r) =>
          r.status_code === 1 &&
          typeof r.registration_number === "string" &&
          /^\d{8}/.test(String(r.tax_number ?? "")) &&
          Array.isArray(r.bank_accounts) &&
          r.bank_accounts.length > 0,
      )
      .map((r) => ({
        taxId: String(r.tax_number).slice(0, 8),
        registration: r.registration_number as string,
        account: (r.bank_accounts as { bank_account: string }[])[0]!.bank_account,
      }))
      // Two businesses, each the only one under its tax base number and its registration number.
      .filter(
        (p, i, all) => all.findIndex((q) => q.taxId === p.taxId || q.registration === p.registration) === i,
      )
      .slice(0, 2);
    expect(payees).toHaveLength(2);
    ruleId = (await insertAlertRule(t.db.sql, {
      name: "every change",
      lists: [],
      headings: [],
      channel: "notify",
      target: "regwatch_alerts",
      digest: false,
    }))!.id;
    web = await startTestConsole(t.db, { env });
    await createUser(t.db, "lili", "reader");
    reader = await signIn(web.url, "lili");
    dir = await mkdtemp(path.join(tmpdir(), "regwatch-status-"));
  }, 120_000);
  afterAll(async () => {
    await web?.close();
    await emulator?.close();
    await t?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A parsed status change of `payee`, dated `day`, which regwatch first saw at `seen`, with an open alert. */
  async function statusChange(
    payee: Payee,
    day: string,
    seen: Date,
    from: number,
    to: number,
  ): Promise<void> {
    const path = `/files/status-${payee.taxId}.json`;
    const [change] = await t.db.sql<{ id: number }[]>`
      insert into regwatch.changes (tax_id, change_date, chapter, path, changed_headings, raw, first_seen_at, last_seen_at)
      values (${payee.taxId}, ${day}::date, 'registry', ${path}, array['status'], '{}', ${seen}, ${seen})
      returning id::int`;
    await t.db.sql`
      insert into regwatch.change_values (change_id, heading, tax_id, change_date, old_value, new_value, path)
      values (${change!.id}, 'status', ${payee.taxId}, ${day}::date, ${t.db.sql.json(from)}, ${t.db.sql.json(to)}, ${path})`;
    await t.db.sql`insert into regwatch.alerts (rule_id, change_id) values (${ruleId}, ${change!.id})`;
  }

  const lookup = async (payee: Payee) => {
    const run = await runCli(["lookup", "reg-number", payee.registration, "--json"], env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout) as {
      results: { status_code: number }[];
      statuses: Record<string, { status: string; as_of: string; source: string }>;
    };
  };
  const searchRead = async (payee: Payee) =>
    (
      await t.db.sql<{ at: Date; day: string }[]>`
        select fetched_at as at, to_char((fetched_at at time zone ${TZ})::date, 'YYYY-MM-DD') as day
        from regwatch.businesses where tax_id = ${payee.taxId}`
    )[0]!;
  const page = async (url: string) => {
    const answer = await fetch(`${web.url}${url}`, {
      headers: { cookie: reader.cookie, "accept-language": "en" },
    });
    expect(answer.status).toBe(200);
    return (await answer.text()).replace(/\s+/g, " ");
  };
  const inboxCard = async (payee: Payee) => {
    const html = await page("/");
    const at = html.indexOf(`<span>${payee.taxId}</span>`);
    expect(at).toBeGreaterThan(0);
    return html.slice(at, html.indexOf("</header>", at));
  };
  const guard = async (payee: Payee) => {
    const file = path.join(dir, `${payee.taxId}.csv`);
    await writeFile(file, `tax_id,bank_account\n${payee.taxId},${payee.account}\n`);
    const run = await runCli(["payments", "check", file, "--json"], env);
    expect(run.stderr).toBe("");
    return (JSON.parse(run.stdout) as { rows: { verdict: string; detail: string }[] }).rows[0]!;
  };

  it("says ceased everywhere when the change file is newer than the search read", async () => {
    const payee = payees[0]!;
    // The search read: the registry says "operating".
    expect((await lookup(payee)).results).toEqual([expect.objectContaining({ status_code: 1 })]);
    const read = await searchRead(payee);
    // Learnt two minutes after the search read, dated the registry's day of that read.
    await statusChange(payee, read.day, new Date(read.at.getTime() + 120_000), 1, 0);

    const business = await page(`/businesses/${payee.taxId}`);
    expect(business).toMatch(/status: ceased \(as of [^)]*2\d{3}, from a change file\)/);
    // The profile's table says the same, not the older search record's status.
    expect(business).toMatch(/<td title="status">Status<\/td> <td class="value">ceased<\/td>/);
    expect(await inboxCard(payee)).toMatch(/ceased \(as of [^)]*, from a change file\)/);
    const verdict = await guard(payee);
    expect(verdict.verdict).toBe("business_ceased");
    expect(verdict.detail).toContain(`ceased (as of ${read.day}, from a change file)`);
    // lookup reads the registry again (still "operating"), yet the change of that day is newer.
    expect((await lookup(payee)).statuses[payee.taxId]).toEqual({
      status_code: 0,
      status: "ceased",
      as_of: read.day,
      source: "change_file",
    });
    const table = await runCli(["lookup", "reg-number", payee.registration], env);
    expect(table.stdout).toContain(`ceased (${read.day}, change file)`);
  });

  it("says what a search read after the change says, when the search is the newer", async () => {
    const payee = payees[1]!;
    await lookup(payee);
    const first = await searchRead(payee);
    const yesterday = (
      await t.db.sql<{ day: string }[]>`select to_char(${first.day}::date - 1, 'YYYY-MM-DD') as day`
    )[0]!.day;
    // A change of the day before, learnt before the next search read.
    await statusChange(payee, yesterday, new Date(first.at.getTime() - 60_000), 1, 0);
    await lookup(payee);
    const read = await searchRead(payee);

    const business = await page(`/businesses/${payee.taxId}`);
    expect(business).toMatch(/status: operating \(as of [^)]*, from a search record\)/);
    expect(business).toMatch(/<td title="status">Status<\/td> <td class="value">operating<\/td>/);
    expect(await inboxCard(payee)).toMatch(/operating \(as of [^)]*, from a search record\)/);
    const verdict = await guard(payee);
    expect(verdict.verdict).not.toBe("business_ceased");
    expect((await lookup(payee)).statuses[payee.taxId]).toMatchObject({
      status: "operating",
      as_of: read.day,
      source: "search",
    });
  });
});

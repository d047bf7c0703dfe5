/**
 * A rule naming a list or heading nobody knows would never fire: `alerts rule add` refuses it
 * (exit 64, naming it), unless a heading not seen yet is asked for on purpose (--new-heading).
 * Known headings come from stored changes (scanned or not yet), parsed values and profiles.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliverAlerts } from "../../src/alerts/deliver.ts";
import { scopeProblems } from "../../src/alerts/rule-input.ts";
import { insertAlertRule } from "../../src/alerts/sql/rules.ts";
import { someSeenHeadings, unseenHeadings } from "../../src/alerts/sql/scope.ts";
import { silentLogger } from "../../src/logger.ts";
import { runCli } from "../helpers/cli.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { alertConfig, SECRET, storeRun, storeValues } from "./harness.ts";

const config = alertConfig();

describe("what an alert rule may name", () => {
  let t: TestDatabase;
  const cli = (...args: string[]) =>
    runCli(["alerts", "rule", ...args], { DATABASE_URL: t.url, REGWATCH_WEBHOOK_SECRET: SECRET });
  const add = (name: string, ...args: string[]) =>
    cli("add", name, "--channel", "notify", "--target", "regwatch_alerts", ...args);

  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("knows a heading from changes not scanned yet, from the scan's table, from values and from profiles", async () => {
    const sql = t.db.sql;
    const { changeIds } = await storeRun(sql, "sync", [
      { taxId: "50000001", date: "2026-11-20", headings: ["seat"], lists: ["alpha"] },
    ]);
    // Not scanned yet: found above the cursor.
    expect(await unseenHeadings(sql, ["seat", "sete"])).toEqual(["sete"]);
    await deliverAlerts({ sql, config, log: silentLogger }, { raiseOnly: true });
    const [row] = await sql`select count(*)::int as n from regwatch.seen_headings where heading = 'seat'`;
    expect(row!.n).toBe(1);
    // Scanned, and the change itself gone: the table still knows the heading.
    await sql`delete from regwatch.changes where id = ${changeIds[0]!}`;
    expect(await unseenHeadings(sql, ["seat"])).toEqual([]);

    const other = await storeRun(sql, "sync", [
      { taxId: "50000002", date: "2026-11-20", headings: ["name"], lists: ["alpha"] },
    ]);
    await deliverAlerts({ sql, config, log: silentLogger }, { raiseOnly: true });
    await storeValues(sql, other.changeIds[0]!, "bank_accounts", [], ["111"]);
    await sql`insert into regwatch.business_profiles (tax_id, headings)
              values ('50000003', '{"long_name": {"value": "Minta Kft.", "as_of": "2026-11-01", "source": "search"}}')`;
    expect(await unseenHeadings(sql, ["bank_accounts", "long_name", "name", "status"])).toEqual(["status"]);
    expect(await someSeenHeadings(sql, 1)).toEqual({ headings: ["name"], more: 1 });
  });

  it("names every unknown list and unseen heading, and lists what is known", () => {
    const facts = {
      remote: [{ listKey: "wl_1", listName: "suppliers" }],
      desired: ["suppliers", "partners"],
      unseen: ["sete"],
      seen: { headings: ["name", "seat"], more: 0 },
    };
    expect(
      scopeProblems(
        { lists: ["wl_1", "partners", "suppliers"], headings: ["seat"] },
        { ...facts, unseen: [] },
        false,
      ),
    ).toEqual([]);
    expect(
      scopeProblems({ lists: ["suplliers", "x\u001b[2J"], headings: ["sete"] }, facts, false).map(
        (p) => p.text,
      ),
    ).toEqual([
      '--list "suplliers", "x\\u001b[2J": no such list, remote (by key or name) or desired (known: suppliers (wl_1), partners)',
      '--heading "sete": no stored change has named this heading (seen: name, seat); check the spelling, or add --new-heading to wait for a heading the registry has not reported yet',
    ]);
    expect(scopeProblems({ lists: [], headings: ["sete"] }, facts, true)).toEqual([]);
    const many = { ...facts, seen: { headings: Array.from({ length: 20 }, (_, i) => `h${i}`), more: 5 } };
    expect(scopeProblems({ lists: [], headings: ["sete"] }, many, false)[0]?.text).toMatch(
      /h19 and 5 more\)/,
    );
  });

  it("refuses an unknown list or an unseen heading with 64; takes a list by key or desired name; stored rules stay", async () => {
    const sql = t.db.sql;
    await sql`insert into regwatch.desired_lists (list_name) values ('partners')`;
    // A rule stored before the check existed, naming what nobody knows, keeps working as stored.
    await insertAlertRule(sql, {
      name: "old",
      lists: ["nobody"],
      headings: ["nothing"],
      channel: "notify",
      target: "regwatch_alerts",
      digest: false,
    });

    const badList = await add("typo", "--list", "alpah");
    expect(badList.code).toBe(64);
    expect(badList.stderr).toMatch(
      /--list "alpah": no such list, remote \(by key or name\) or desired \(known: alpha \(key-alpha\), partners\)/,
    );
    const badHeading = await add("typo", "--list", "key-alpha", "--heading", "sete");
    expect(badHeading.code).toBe(64);
    expect(badHeading.stderr).toMatch(
      /--heading "sete": no stored change has named this heading \(seen: name, seat\)/,
    );

    const ok = await add("seats", "--list", "key-alpha", "--list", "partners", "--heading", "seat");
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    const fresh = await add("status", "--heading", "status", "--new-heading");
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).toMatch(
      /note: no stored change has named status yet; the rule fires once the registry reports it/,
    );

    const listed = JSON.parse((await cli("list", "--json")).stdout) as { name: string; lists: string[] }[];
    expect(listed.map((r) => [r.name, r.lists])).toEqual([
      ["old", ["nobody"]],
      ["seats", ["key-alpha", "partners"]],
      ["status", []],
    ]);
    await storeRun(sql, "sync", [
      { taxId: "50000004", date: "2026-11-21", headings: ["seat"], lists: ["alpha"] },
    ]);
    expect(await deliverAlerts({ sql, config, log: silentLogger }, { raiseOnly: true })).toMatchObject({
      raised: 1,
    });
  }, 120_000);
});

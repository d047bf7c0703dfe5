/**
 * The inbox's count cards (issue 34), read in one ordered pass over partial indexes (migration
 * 0043): each card counts changes with an open alert, agrees with the filter it links to, and
 * "high" is what SEVERITY_RULE says however a change came to be high (a bank account, a name
 * heading, a status to ceased or suspended under either status heading).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEVERITY_RULE } from "../../src/alerts/severity.ts";
import { finishRun, startRun } from "../../src/run/runs.ts";
import { type InboxChangeFilter, inboxChangeCounts, inboxChanges } from "../../src/web/sql/inbox-changes.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { ALL_OPEN, addChange, inboxRowsOf } from "../helpers/inbox-rows.ts";

const NOW = new Date("2026-11-27T09:00:00Z");
const SINCE = new Date(NOW.getTime() - 86_400_000);
const HOUR = 3_600_000;

let t: TestDatabase;

const change = (taxId: string, headings: string[], values: Record<string, string> = {}) =>
  addChange(t.db.sql, taxId, headings, values);

/** One alert per rule on the change, raised `hoursAgo` before NOW, with the status and assignee given. */
async function alerts(
  changeId: number,
  each: { hoursAgo: number; status?: string; assignedTo?: string }[],
  runId: number,
): Promise<void> {
  const rules = await t.db.sql<{ id: number }[]>`select id::int from ${t.db.sql.t.alert_rules} order by id`;
  for (const [i, a] of each.entries()) {
    await t.db.sql`
      insert into ${t.db.sql.t.alerts} (rule_id, change_id, run_id, raised_at, status, assigned_to)
      values (${rules[i]!.id}, ${changeId}, ${runId}, ${new Date(NOW.getTime() - a.hoursAgo * HOUR)},
              ${a.status ?? "open"}, ${a.assignedTo ?? null})`;
  }
}

const rowsOf = (filter: Partial<InboxChangeFilter>) => inboxRowsOf(t.db.sql, filter);

describe("the inbox's count cards", () => {
  beforeAll(async () => {
    t = await createTestDatabase();
    const sql = t.db.sql;
    const runId = await startRun(sql, "sync", "cli", { options: { kind: "sync" } });
    await sql`insert into ${sql.t.alert_rules} (name, channel, target) values ('first', 'notify', 'x'), ('second', 'notify', 'x')`;
    const twoOpen = (hoursAgo: number) => [{ hoursAgo }, { hoursAgo }];
    // High by a bank account, raised within the day.
    await alerts(await change("11111111", ["bank_accounts"]), twoOpen(1), runId);
    // High by a status to ceased, raised within the day.
    await alerts(await change("22222222", ["status"], { status: "0" }), twoOpen(2), runId);
    // A status to something else: normal.
    await alerts(await change("33333333", ["status"], { status: "1" }), twoOpen(30), runId);
    // High by a name heading.
    await alerts(await change("44444444", ["full_name"]), twoOpen(40), runId);
    // High, but no alert open: counted nowhere.
    await alerts(
      await change("55555555", ["short_name"]),
      [
        { hoursAgo: 3, status: "acknowledged" },
        { hoursAgo: 3, status: "resolved" },
      ],
      runId,
    );
    // One alert open and assigned to anna, the other acknowledged: normal, anna's.
    await alerts(
      await change("66666666", ["seat"]),
      [
        { hoursAgo: 50, assignedTo: "anna" },
        { hoursAgo: 50, status: "acknowledged" },
      ],
      runId,
    );
    // Suspended under both status headings (two values, one change): high once.
    await alerts(
      await change("77777777", ["status", "status_code"], { status: "2", status_code: "2" }),
      twoOpen(60),
      runId,
    );
    // Assigned to someone else, open: not anna's.
    await alerts(await change("88888888", ["seat"]), [{ hoursAgo: 70, assignedTo: "béla" }], runId);
    await finishRun(sql, runId, "ok", { options: { kind: "sync" } });
  });
  afterAll(async () => {
    await t?.drop();
  });

  it("counts changes with an open alert, once each, by each card's rule", async () => {
    const counts = await inboxChangeCounts(t.db.sql, { since: SINCE, me: "anna" });
    expect(counts).toEqual({ open: 7, newSince: 2, high: 4, bankAccounts: 1, assignedToMe: 1 });
  });

  it("agrees with the filter each card links to", async () => {
    const counts = await inboxChangeCounts(t.db.sql, { since: SINCE, me: "anna" });
    expect(await rowsOf({})).toBe(counts.open);
    expect(await rowsOf({ raisedSince: SINCE })).toBe(counts.newSince);
    expect(await rowsOf({ severity: "high" })).toBe(counts.high);
    expect(await rowsOf({ heading: "bank_accounts" })).toBe(counts.bankAccounts);
    expect(await rowsOf({ assignedTo: "anna" })).toBe(counts.assignedToMe);
  });

  it("labels the page's rows high as the high card counts them", async () => {
    const page = await inboxChanges(t.db.sql, ALL_OPEN, SEVERITY_RULE, "Europe/Budapest");
    const high = page.changes.filter((c) => c.severity === "high").map((c) => c.taxId);
    expect(high.sort()).toEqual(["11111111", "22222222", "44444444", "77777777"]);
  });

  it("has the index of high-heading changes name the severity rule's headings", async () => {
    const [row] = await t.db.sql<{ def: string }[]>`
      select pg_get_indexdef(${`${t.db.sql.schema}.changes_high_headings`}::regclass) as def`;
    const named = [...(row?.def ?? "").matchAll(/'([a-z_]+)'::text/g)].map((m) => m[1]);
    expect(named.sort()).toEqual([...SEVERITY_RULE.headings].sort());
  });
});

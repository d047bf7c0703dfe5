/**
 * The inbox's count cards read inbox_open_changes, which triggers keep as alerts open, close,
 * snooze and go (migration 0055). Each check holds the cards to what the alerts themselves say:
 * the inbox's rows under the filter each card links to, read from alerts directly.
 */
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reopenSnoozed, setAlertStatus } from "../../src/alerts/sql/lifecycle.ts";
import { startRun } from "../../src/run/runs.ts";
import {
  assignAlerts,
  type InboxChangeCounts,
  type InboxChangeFilter,
  inboxChangeCounts,
} from "../../src/web/sql/inbox-changes.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addChange, addChangeValue, inboxRowsOf } from "../helpers/inbox-rows.ts";

const NOW = new Date("2026-11-27T09:00:00Z");
const SINCE = new Date(NOW.getTime() - 86_400_000);

let t: TestDatabase;
let runId: number;
let rules: number[];

const change = (taxId: string, headings: string[], values: Record<string, string> = {}) =>
  addChange(t.db.sql, taxId, headings, values);

/** One open alert per rule on the change (as many as `hoursAgo` gives), their ids. */
async function raise(changeId: number, hoursAgo: number[]): Promise<number[]> {
  const sql = t.db.sql;
  const rows = await sql<{ id: number }[]>`
    insert into ${sql.t.alerts} (rule_id, change_id, run_id, raised_at)
    select r, ${changeId}, ${runId}, ${NOW}::timestamptz - h * interval '1 hour'
    from unnest(${rules.slice(0, hoursAgo.length)}::bigint[], ${hoursAgo}::int[]) x(r, h)
    returning id::int`;
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

const rowsOf = (filter: Partial<InboxChangeFilter>) => inboxRowsOf(t.db.sql, filter);

/** The cards as the alerts say they should be: the inbox's rows under each card's filter. */
async function expected(): Promise<InboxChangeCounts> {
  return {
    open: await rowsOf({}),
    newSince: await rowsOf({ raisedSince: SINCE }),
    high: await rowsOf({ severity: "high" }),
    bankAccounts: await rowsOf({ heading: "bank_accounts" }),
    assignedToMe: await rowsOf({ assignedTo: "anna" }),
  };
}

async function cards(): Promise<InboxChangeCounts> {
  return inboxChangeCounts(t.db.sql, { since: SINCE, me: "anna" });
}

const by = (
  ids: number[],
  status: "acknowledged" | "resolved" | "snoozed",
  snoozedUntil: string | null = null,
) => setAlertStatus(t.db.sql, { ids, status, by: "anna", note: null, snoozedUntil, at: NOW });

describe("the inbox's count cards kept as alerts change", () => {
  let bank: number[];
  let plain: number[];
  let named: number[];
  let ceasing: number;
  let ceasingAlerts: number[];

  beforeAll(async () => {
    t = await createTestDatabase();
    const sql = t.db.sql;
    runId = await startRun(sql, "sync", "cli", { options: { kind: "sync" } });
    const made = await sql<{ id: number }[]>`
      insert into ${sql.t.alert_rules} (name, channel, target)
      values ('first', 'notify', 'x'), ('second', 'notify', 'x'), ('third', 'notify', 'x') returning id::int`;
    rules = made.map((r) => r.id);
    bank = await raise(await change("10000001", ["bank_accounts"]), [2, 30]);
    plain = await raise(await change("10000002", ["seat"]), [40, 50, 60]);
    named = await raise(await change("10000003", ["full_name"]), [1]);
    ceasing = await change("10000004", ["status"]);
    ceasingAlerts = await raise(ceasing, [5, 70]);
  });

  afterAll(async () => {
    await t?.drop();
  });

  it("counts what is raised, closed, snoozed and assigned as the alerts say", async () => {
    expect(await cards()).toEqual({ open: 4, newSince: 3, high: 2, bankAccounts: 1, assignedToMe: 0 });
    expect(await cards()).toEqual(await expected());

    // The bank change's newest alert resolved: still open by its older one, no longer new.
    await by([bank[0]!], "resolved");
    expect(await cards()).toEqual({ open: 4, newSince: 2, high: 2, bankAccounts: 1, assignedToMe: 0 });
    await by([bank[1]!], "acknowledged");
    expect(await cards()).toEqual({ open: 3, newSince: 2, high: 1, bankAccounts: 0, assignedToMe: 0 });
    await assignAlerts(t.db.sql, { ids: [plain[2]!], to: "anna", by: "anna", note: null, at: NOW });
    expect(await cards()).toEqual({ open: 3, newSince: 2, high: 1, bankAccounts: 0, assignedToMe: 1 });
    await t.db.sql`update ${t.db.sql.t.alerts} set status = 'open' where id = any (${bank}::bigint[])`;
    expect(await cards()).toEqual(await expected());
    expect((await cards()).open).toBe(4);
  });

  it("makes a change high when its values are rewritten to a ceased status, and normal again", async () => {
    const before = (await cards()).high;
    await addChangeValue(t.db.sql, ceasing, "10000004", "status", "0");
    expect((await cards()).high).toBe(before + 1);
    expect(await cards()).toEqual(await expected());
    await t.db.sql`delete from ${t.db.sql.t.change_values} where change_id = ${ceasing}`;
    expect((await cards()).high).toBe(before);
  });

  it("counts a snoozed change again once the registry's day is past the snooze", async () => {
    const before = (await cards()).open;
    await by(named, "snoozed", "2026-11-27");
    expect((await cards()).open).toBe(before - 1);
    expect(await reopenSnoozed(t.db.sql, "2026-11-27", NOW)).toBe(0);
    expect((await cards()).open).toBe(before - 1);
    // The next registry day: the snooze has ended, and the change is counted (and new) again.
    expect(await reopenSnoozed(t.db.sql, "2026-11-28", new Date("2026-11-27T23:30:00Z"))).toBe(1);
    expect(await cards()).toEqual(await expected());
    expect((await cards()).open).toBe(before);
  });

  it("loses no count when two connections close alerts of one change at once", async () => {
    const a = postgres(t.url, { max: 1, onnotice: () => {} });
    const b = postgres(t.url, { max: 1, onnotice: () => {} });
    try {
      const before = (await cards()).open;
      let release: () => void = () => {};
      const held = new Promise<void>((r) => {
        release = r;
      });
      let updated: () => void = () => {};
      const didUpdate = new Promise<void>((r) => {
        updated = r;
      });
      // The first closes one of the change's two open alerts and holds its transaction open...
      const first = a.begin(async (tx) => {
        await tx`update regwatch.alerts set status = 'resolved' where id = ${ceasingAlerts[0]!}`;
        updated();
        await held;
      });
      await didUpdate;
      // ...while the second closes the other, then waits for the first's lock on the change.
      const second = b.begin(async (tx) => {
        await tx`update regwatch.alerts set status = 'resolved' where id = ${ceasingAlerts[1]!}`;
      });
      await waitFor(async () => {
        const [w] = await t.db.sql<{ n: number }[]>`
          select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`;
        return (w?.n ?? 0) > 0;
      });
      release();
      await Promise.all([first, second]);
      expect((await cards()).open).toBe(before - 1);
      expect(await cards()).toEqual(await expected());

      // And two opening them again at once, neither seeing the other's until it commits.
      await Promise.all([
        a`update regwatch.alerts set status = 'open' where id = ${ceasingAlerts[0]!}`,
        b`update regwatch.alerts set status = 'open' where id = ${ceasingAlerts[1]!}`,
      ]);
      expect((await cards()).open).toBe(before);
      const [row] = await t.db.sql<{ n: number }[]>`
        select open_alerts as n from ${t.db.sql.t.inbox_open_changes} where change_id = ${ceasing}`;
      expect(row?.n).toBe(2);
    } finally {
      await a.end();
      await b.end();
    }
  });

  it("forgets alerts deleted, with their change or on their own", async () => {
    const sql = t.db.sql;
    const before = await cards();
    await sql`delete from ${sql.t.alerts} where id = ${plain[0]!}`;
    expect((await cards()).open).toBe(before.open);
    await sql`delete from ${sql.t.changes} where id = (select change_id from ${sql.t.alerts} where id = ${bank[0]!})`;
    expect(await cards()).toMatchObject({ open: before.open - 1, bankAccounts: 0, high: before.high - 1 });
    expect(await cards()).toEqual(await expected());
    await sql`truncate ${sql.t.alerts} cascade`;
    expect(await cards()).toEqual({ open: 0, newSince: 0, high: 0, bankAccounts: 0, assignedToMe: 0 });
  });
});

async function waitFor(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("the second transaction never waited for the first");
}

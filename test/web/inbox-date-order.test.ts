/**
 * The inbox orders a business's changes by their change date (issue 49, point 12), newest first,
 * not by when they were stored: a backfill stores an older change after a newer one, and the
 * group then read as if the older came later. Real HTTP against a console on a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createUser,
  getPage,
  type SignedIn,
  signIn,
  startTestConsole,
  type TestConsole,
} from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addNotifyRule, nameBusiness, raiseAlerts } from "./fixtures.ts";

let t: TestDatabase;
let web: TestConsole;
let reader: SignedIn;

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db);
  await createUser(t.db, "rita", "reader");
  await addNotifyRule(t.db.sql);
  await nameBusiness(t.db.sql, "11111111", "Alpha Kft.");
  reader = await signIn(web.url, "rita");
});
afterAll(async () => {
  await web?.close();
  await t?.drop();
});

describe("the inbox", () => {
  it("lists a business's changes by change date, whatever order they were stored in", async () => {
    // Stored in the order a sync and then a backfill of the weeks before would store them.
    const stored = [
      { taxId: "11111111", date: "2026-11-20", headings: ["seat"], lists: ["suppliers"] },
      { taxId: "11111111", date: "2026-11-02", headings: ["name"], lists: ["suppliers"] },
      { taxId: "11111111", date: "2026-11-12", headings: ["status"], lists: ["suppliers"] },
    ];
    await raiseAlerts(t.db.sql, stored);
    const ids = await t.db.sql<{ id: number; day: string }[]>`
      select id::int, to_char(change_date, 'YYYY-MM-DD') as day from regwatch.changes`;
    const idOf = (day: string) => ids.find((r) => r.day === day)!.id;
    const html = await (await getPage(`${web.url}/`, reader)).text();
    const shown = [...html.matchAll(/data-change="(\d+)"/g)].map((m) => Number(m[1]));
    expect(shown).toEqual([idOf("2026-11-20"), idOf("2026-11-12"), idOf("2026-11-02")]);
  });
});

/**
 * The console's payment upload refuses what the reader bounds, with the form again (400) naming
 * the line, never a 500 or a database error, and leaves no batch row behind: a NUL character in a
 * cell, and a 100 KiB cell.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type SignedIn, signIn, startTestConsole, type TestConsole } from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const ACCOUNT = "11773016-11111018-00000000";

let t: TestDatabase;
let web: TestConsole;
let reviewer: SignedIn;

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db);
  await createUser(t.db, "vera", "reviewer");
  reviewer = await signIn(web.url, "vera");
});
afterAll(async () => {
  await web?.close();
  await t?.drop();
});

function upload(file: string, name: string): Promise<Response> {
  const form = new FormData();
  form.append("_csrf", reviewer.csrf);
  form.append("file", new Blob([file], { type: "text/csv" }), name);
  return fetch(`${web.url}/payments`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: reviewer.cookie },
    body: form,
  });
}

const batches = async () =>
  (await t.db.sql<{ n: number }[]>`select count(*)::int as n from regwatch.payment_batches`)[0]!.n;

describe("an upload the reader refuses", () => {
  it("with a NUL in a cell: 400 naming the line, no batch row", async () => {
    const answer = await upload(
      `bank_account;amount;reference\n${ACCOUNT};100;R1\n${ACCOUNT};200;a\0b\n`,
      "nul.csv",
    );
    const page = await answer.text();
    expect(answer.status).toBe(400);
    expect(page).toContain("nul.csv line 3: line 3 holds a NUL character");
    expect(await batches()).toBe(0);
  });

  it("with a 100 KiB cell: 400 naming the line, no batch row", async () => {
    const big = "y".repeat(100 * 1024);
    const answer = await upload(`bank_account;amount;reference\n${ACCOUNT};100;${big}\n`, "long.csv");
    const page = await answer.text();
    expect(answer.status).toBe(400);
    expect(page).toContain("long.csv line 2: line 2 is longer than 65536 characters");
    expect(page).not.toContain(big);
    expect(await batches()).toBe(0);
  });
});

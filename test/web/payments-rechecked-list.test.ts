/**
 * The batch list marks a batch that "Check again" made (issue 49, point 12): its line says it
 * was checked again and links to the batch it repeats, in English and Hungarian; a file's own
 * check carries no mark. Real HTTP against a console on a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createUser,
  getPage,
  postForm,
  type SignedIn,
  signIn,
  startTestConsole,
  TEST_PASSWORD,
  type TestConsole,
} from "../helpers/console.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";

const UUID = /^\/payments\/([0-9a-f-]{36})$/;
let t: TestDatabase;
let web: TestConsole;
let vera: SignedIn;
let anna: SignedIn;

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db);
  await createUser(t.db, "vera", "reviewer");
  await createUser(t.db, "anna", "reviewer", TEST_PASSWORD, "hu");
  vera = await signIn(web.url, "vera");
  anna = await signIn(web.url, "anna");
});
afterAll(async () => {
  await web?.close();
  await t?.drop();
});

async function upload(text: string, name: string): Promise<string> {
  const form = new FormData();
  form.append("_csrf", vera.csrf);
  form.append("file", new Blob([text]), name);
  const answer = await fetch(`${web.url}/payments`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: vera.cookie },
    body: form,
  });
  expect(answer.status).toBe(303);
  return UUID.exec(answer.headers.get("location") ?? "")![1]!;
}

/** The batch list's line (its table row) that links to the batch. */
function lineOf(html: string, id: string): string {
  const rows = html.match(/<tr>[\s\S]*?<\/tr>/g) ?? [];
  return rows.find((r) => r.includes(`<td><a href="/payments/${id}">`)) ?? "";
}

describe("the batch list", () => {
  it("marks a batch checked again, linking to the batch it repeats", async () => {
    // A community tax number, as an ERP's export gives it (issue 49, point 1): read, and kept as written.
    const first = await upload(
      "Adószám;Számlaszám;Összeg\nHU-24380313;11773016-11111018-00000000;9\n",
      "c.csv",
    );
    const [checked] = await t.db.sql<{ tax_id: string; tax_base: string; verdict: string }[]>`
      select tax_id, tax_base, verdict from regwatch.payment_checks where batch_id = ${first}`;
    expect(checked).toMatchObject({ tax_id: "HU-24380313", tax_base: "24380313" });
    expect(checked!.verdict).not.toBe("invalid_tax_id");
    const again = await postForm(`${web.url}/payments/${first}/recheck`, vera, {});
    expect(again.status).toBe(303);
    const second = UUID.exec(again.headers.get("location") ?? "")![1]!;
    const html = await (await getPage(`${web.url}/payments`, vera)).text();
    expect(lineOf(html, second)).toMatch(
      new RegExp(`<a class="[^"]*rechecked" href="/payments/${first}"[^>]*>checked again</a>`),
    );
    expect(lineOf(html, first)).not.toContain("rechecked");
    const magyar = await (await getPage(`${web.url}/payments`, anna)).text();
    expect(lineOf(magyar, second)).toContain(">újraellenőrzés</a>");
  });
});

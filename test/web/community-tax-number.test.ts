/**
 * Community tax numbers on the console (issue 49, point 1) and the list forms' refusals (point
 * 12): `HU24380313` (a blank or hyphen after the prefix, any case) is the tax base number
 * 24380313 in the list forms, the search box and a business's address; another member state's
 * VAT number is refused naming its country, in English and Hungarian. A refused add form comes
 * back with what was typed and why, on the page it was sent from, not as a bare 400 page.
 * Real HTTP against a console on a real database.
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

let t: TestDatabase;
let web: TestConsole;
let ada: SignedIn;
let anna: SignedIn;

beforeAll(async () => {
  t = await createTestDatabase();
  web = await startTestConsole(t.db);
  await createUser(t.db, "ada", "admin");
  await createUser(t.db, "anna", "admin", TEST_PASSWORD, "hu");
  ada = await signIn(web.url, "ada");
  anna = await signIn(web.url, "anna");
});
afterAll(async () => {
  await web?.close();
  await t?.drop();
});

const desired = async (list: string) =>
  (
    await t.db.sql<{ tax_id: string }[]>`
    select tax_id from regwatch.desired_items where list_name = ${list} order by tax_id`
  ).map((r) => r.tax_id);

describe("the list forms", () => {
  it("add a community tax number as its tax base number", async () => {
    for (const [list, typed] of [
      ["eu", "HU24380313"],
      ["eu", "hu 10000001"],
      ["eu2", "HU-10000018"],
    ] as const) {
      const added = await postForm(`${web.url}/lists/members`, ada, { list, from: "lists", tax_id: typed });
      expect(added.status, typed).toBe(303);
    }
    expect(await desired("eu")).toEqual(["10000001", "24380313"]);
    expect(await desired("eu2")).toEqual(["10000018"]);
  });

  it("refuse another member state's VAT number on the list's page, keeping what was typed", async () => {
    const answer = await postForm(`${web.url}/lists/members`, ada, {
      list: "eu",
      tax_id: "DE123456789",
      note: "a német szállító",
    });
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html).toContain("is a VAT number of another member state (DE), not a Hungarian tax number");
    expect(html).toContain("<h1>List eu</h1>");
    expect(html).toMatch(/name="tax_id"[^>]*value="DE123456789"/);
    expect(html).toMatch(/name="note"[^>]*value="a német szállító"/);
    expect(html).toContain('data-tax-id="24380313"');
    const magyar = await (
      await postForm(`${web.url}/lists/members`, anna, { list: "eu", tax_id: "DE123456789" })
    ).text();
    expect(magyar).toContain("egy másik uniós tagállam (DE) közösségi adószáma, nem magyar adószám");
    expect(await desired("eu")).toEqual(["10000001", "24380313"]);
  });

  it("refuse on the lists page what its form sent, keeping the list name and the rest", async () => {
    const answer = await postForm(`${web.url}/lists/members`, ada, {
      list: "new suppliers",
      from: "lists",
      tax_id: "12345670",
      note: "from the ERP",
    });
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html).toContain('id="add-member"');
    expect(html).toContain("wrong check digit");
    expect(html).toMatch(/name="list"[^>]*value="new suppliers"/);
    expect(html).toMatch(/name="tax_id"[^>]*value="12345670"/);
    expect(html).toMatch(/name="note"[^>]*value="from the ERP"/);
    expect(await desired("new suppliers")).toEqual([]);
  });
});

describe("the search box and a business's address", () => {
  it("open the business of a community tax number and name another member state's", async () => {
    for (const q of ["HU24380313", "HU 24380313", "hu-24380313"]) {
      const answer = await getPage(`${web.url}/search?q=${encodeURIComponent(q)}`, ada);
      expect(answer.status, q).toBe(303);
      expect(answer.headers.get("location")).toBe("/businesses/24380313");
    }
    const page = await getPage(`${web.url}/businesses/HU24380313`, ada);
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toBe("/businesses/24380313");
    const foreign = await (await getPage(`${web.url}/search?q=DE123456789`, ada)).text();
    expect(foreign).toContain("is a VAT number of another member state (DE)");
    const magyar = await (await getPage(`${web.url}/search?q=DE123456789`, anna)).text();
    expect(magyar).toContain("egy másik uniós tagállam (DE) közösségi adószáma");
    expect((await getPage(`${web.url}/changes?tax_id=HU%2024380313`, ada)).status).toBe(200);
    const byForm = await getPage(`${web.url}/businesses?tax_id=hu24380313`, ada);
    expect(byForm.headers.get("location")).toBe("/businesses/24380313");
    expect(await (await getPage(`${web.url}/businesses?tax_id=DE123456789`, ada)).text()).toContain(
      "another member state (DE)",
    );
    const filter = await getPage(`${web.url}/changes?tax_id=DE123456789`, ada);
    expect(filter.status).toBe(400);
    expect(await filter.text()).toContain("another member state (DE)");
  });
});

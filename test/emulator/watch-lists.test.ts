import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Bulk, type Harness, startHarness, watchableTaxIds } from "./harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ maxListSize: 5, totalCap: 8 });
});
afterAll(() => h.emulator.close());

interface List {
  list_key: string;
  list_name: string;
  created_at: string;
  watch_count: number;
}

async function createList(name: string): Promise<List> {
  const { status, body } = await h.json<List>("POST", "/v2/lists", { list_name: name });
  expect(status).toBe(201);
  return body;
}

/** Every tax id of the request is in exactly one of success and failed. */
function expectPartition(request: string[], bulk: Bulk) {
  const reported = [...bulk.success, ...bulk.failed.map((f) => f.tax_id)];
  expect(reported.sort()).toEqual([...request].sort());
}

describe("watch lists", () => {
  it("creates, reads, lists and deletes a list with its items", async () => {
    const list = await createList("ügyfelek");
    expect(list).toMatchObject({ list_name: "ügyfelek", created_at: "2024-03-11", watch_count: 0 });
    expect(list.list_key).toMatch(/^\w+$/);
    expect((await h.json("GET", `/v2/lists/${list.list_key}`)).body).toEqual(list);
    const ids = watchableTaxIds(h.emulator, 2);
    await h.json("POST", `/v2/lists/${list.list_key}/items`, { tax_ids: ids });
    const all = await h.json<{ watch_lists: List[]; total_watch_count: number }>("GET", "/v2/lists");
    expect(all.body.watch_lists.find((l) => l.list_key === list.list_key)?.watch_count).toBe(2);
    expect(all.body.total_watch_count).toBe(2);

    const wrongName = await h.call("DELETE", `/v2/lists/${list.list_key}`, { list_name: "other" });
    expect(wrongName.status).toBe(400);
    const deleted = await h.call("DELETE", `/v2/lists/${list.list_key}`, { list_name: "ügyfelek" });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    expect((await h.json("GET", `/v2/lists/${list.list_key}`)).status).toBe(404);
    expect((await h.json("GET", `/v2/lists/${list.list_key}/items`)).status).toBe(404);
    expect((await h.json<{ total_watch_count: number }>("GET", "/v2/lists")).body.total_watch_count).toBe(0);
  });

  it("answers an unknown list with 404, a bad body with 400 and a wrong method with 405", async () => {
    const unknown = await h.json("GET", "/v2/lists/nope");
    expect(unknown).toEqual({ status: 404, body: { message: expect.any(String) } });
    for (const body of ["", "{not json", "[]", { list_name: "" }, { list_name: 5 }]) {
      const res = await h.json("POST", "/v2/lists", body);
      expect(res.status).toBe(400);
      expect(res.body).toHaveProperty("message");
    }
    const list = await createList("bodies");
    for (const body of [{}, { tax_ids: "12345678" }, { tax_ids: [1, 2] }]) {
      expect((await h.json("POST", `/v2/lists/${list.list_key}/items`, body)).status).toBe(400);
    }
    const wrong = await h.call("PUT", `/v2/lists/${list.list_key}`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, DELETE");
    await h.call("DELETE", `/v2/lists/${list.list_key}`, { list_name: "bodies" });
  });

  it("derives list keys from the seed", async () => {
    const again = await startHarness();
    try {
      const a = await createList("same");
      const b = (await again.json<List>("POST", "/v2/lists", { list_name: "same" })).body;
      expect(typeof a.list_key).toBe("string");
      const fresh = await startHarness();
      const c = (await fresh.json<List>("POST", "/v2/lists", { list_name: "x" })).body;
      expect(c.list_key).toBe(b.list_key);
      await fresh.emulator.close();
      await h.call("DELETE", `/v2/lists/${a.list_key}`, { list_name: "same" });
    } finally {
      await again.emulator.close();
    }
  });
});

describe("bulk items", () => {
  it("reports 422, 404, 409 and success, each tax id exactly once", async () => {
    const list = await createList("codes");
    const [first, second] = watchableTaxIds(h.emulator, 2);
    const [budget] = h.emulator.sampleBusinesses({ type: "budget_orgs", limit: 1 });
    const request = [
      first!,
      "1234567",
      "12345670",
      "abcdefgh",
      "99999999",
      String(budget!.tax_id),
      first!,
      second!,
    ];
    const { status, body } = await h.json<Bulk>("POST", `/v2/lists/${list.list_key}/items`, {
      tax_ids: request,
    });
    expect(status).toBe(200);
    expectPartition(request, body);
    expect(body.success).toEqual([first, second]);
    const codes = Object.fromEntries(body.failed.map((f) => [f.tax_id, f.code]));
    expect(codes["1234567"]).toBe(422); // seven digits
    expect(codes.abcdefgh).toBe(422);
    expect(codes["12345670"]).toBe(422); // wrong check digit: 12345676 would be valid
    expect(codes["99999999"]).toBe(404); // valid check digit, nobody has it
    expect(codes[String(budget!.tax_id)]).toBe(404); // budget organisations are not watched
    expect(body.failed.find((f) => f.tax_id === first)?.code).toBe(409);

    const items = await h.json<{ watched_items: Array<{ tax_id: string; added_at: string }> }>(
      "GET",
      `/v2/lists/${list.list_key}/items`,
    );
    expect(items.body.watched_items).toEqual([
      { added_at: "2024-03-11", tax_id: first },
      { added_at: "2024-03-11", tax_id: second },
    ]);

    const removal = [first!, first!, "99999999", "bad"];
    const removed = await h.json<Bulk>("DELETE", `/v2/lists/${list.list_key}/items`, { tax_ids: removal });
    expectPartition(removal, removed.body);
    expect(removed.body.success).toEqual([first]);
    expect(removed.body.failed).toEqual([
      { tax_id: first, code: 409 },
      { tax_id: "99999999", code: 409 },
      { tax_id: "bad", code: 422 },
    ]);
    await h.call("DELETE", `/v2/lists/${list.list_key}`, { list_name: "codes" });
  });

  it("refuses with 429 beyond the list size and beyond the total cap", async () => {
    const ids = watchableTaxIds(h.emulator, 10);
    const a = await createList("cap-a");
    const full = await h.json<Bulk>("POST", `/v2/lists/${a.list_key}/items`, { tax_ids: ids.slice(0, 7) });
    expectPartition(ids.slice(0, 7), full.body);
    expect(full.body.success).toEqual(ids.slice(0, 5)); // maxListSize 5
    expect(full.body.failed).toEqual(ids.slice(5, 7).map((tax_id) => ({ tax_id, code: 429 })));

    const b = await createList("cap-b");
    const total = await h.json<Bulk>("POST", `/v2/lists/${b.list_key}/items`, { tax_ids: ids.slice(5, 10) });
    expect(total.body.success).toEqual(ids.slice(5, 8)); // totalCap 8 over all lists
    expect(total.body.failed.map((f) => f.code)).toEqual([429, 429]);

    // Deleting a list frees its share of the total.
    await h.call("DELETE", `/v2/lists/${a.list_key}`, { list_name: "cap-a" });
    const after = await h.json<Bulk>("POST", `/v2/lists/${b.list_key}/items`, { tax_ids: ids.slice(8, 10) });
    expect(after.body.success).toEqual(ids.slice(8, 10));
    await h.call("DELETE", `/v2/lists/${b.list_key}`, { list_name: "cap-b" });
  });

  it("logs the tax ids of bulk requests", async () => {
    const list = await createList("logged");
    const ids = watchableTaxIds(h.emulator, 2);
    await h.call("POST", `/v2/lists/${list.list_key}/items`, { tax_ids: ids });
    const entry = h.emulator
      .requests()
      .find((r) => r.endpoint === "POST /v2/lists/:key/items" && r.path.includes(list.list_key));
    expect(entry).toMatchObject({ method: "POST", status: 200, keyValid: true, taxIds: ids, origin: "api" });
    await h.call("DELETE", `/v2/lists/${list.list_key}`, { list_name: "logged" });
  });
});

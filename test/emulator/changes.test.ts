import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChangesBody, type Harness, MORNING, startHarness, watchableTaxIds } from "./harness.ts";

let h: Harness;
let key: string;
let seededKey: string;
beforeAll(async () => {
  h = await startHarness({
    separateFileOrigin: true,
    lists: [{ name: "history", createdAt: "2024-01-02", size: 40 }],
  });
  seededKey = h.emulator.listsSnapshot()[0]!.list_key;
  key = (await h.json<{ list_key: string }>("POST", "/v2/lists", { list_name: "fresh" })).body.list_key;
});
afterAll(() => h.emulator.close());

const changes = (listKey: string, from: string, to: string) =>
  h.json<ChangesBody>("GET", `/v2/lists/${listKey}/changes?start_date=${from}&end_date=${to}`);

describe("changes interval", () => {
  it("returns the history of a seeded list with both dates inclusive", async () => {
    const { status, body } = await changes(seededKey, "2024-02-05", "2024-02-11");
    expect(status).toBe(200);
    expect(body.start_date).toBe("2024-02-05");
    expect(body.end_date).toBe("2024-02-11");
    // Forty businesses at three changes a month give about thirty changes a week.
    expect(body.changed_items.length).toBeGreaterThan(10);
    const dates = body.changed_items.map((c) => c.change);
    expect(dates).toEqual([...dates].sort());
    expect(dates.every((d) => d >= "2024-02-05" && d <= "2024-02-11")).toBe(true);
    const watched = new Set(h.emulator.listsSnapshot()[0]!.items.map((i) => i.tax_id));
    for (const item of body.changed_items) {
      expect(watched.has(item.tax_id)).toBe(true);
      expect(item.changed_headings.length).toBeGreaterThan(0);
      expect(item).toHaveProperty("change_type");
      expect(item).toHaveProperty("heading_types");
    }
    // Each single day of the week together gives the same changes as the week.
    let perDay = 0;
    for (let d = 5; d <= 11; d++) {
      const day = `2024-02-${String(d).padStart(2, "0")}`;
      perDay += (await changes(seededKey, day, day)).body.changed_items.length;
    }
    expect(perDay).toBe(body.changed_items.length);
  });

  it("refuses more than seven days and a reversed interval with 400", async () => {
    expect((await changes(seededKey, "2024-02-01", "2024-02-07")).status).toBe(200);
    for (const [from, to] of [
      ["2024-02-01", "2024-02-08"],
      ["2024-02-07", "2024-02-01"],
    ]) {
      const res = await changes(seededKey, from!, to!);
      expect(res.status).toBe(400);
      expect(res.body).toHaveProperty("message");
    }
  });

  it("refuses a missing or invalid date as FastAPI does: 422 naming the query parameter", async () => {
    for (const [from, to, bad] of [
      ["2024-02-30", "2024-03-01", "start_date"],
      ["yesterday", "2024-03-01", "start_date"],
      ["2024-03-01", "03/02/2024", "end_date"],
    ]) {
      const res = await changes(seededKey, from!, to!);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        detail: [expect.objectContaining({ loc: ["query", bad], input: bad === "end_date" ? to : from })],
      });
    }
    const missing = await h.json("GET", `/v2/lists/${seededKey}/changes?start_date=2024-02-01`);
    expect(missing).toEqual({
      status: 422,
      body: { detail: [{ type: "missing", loc: ["query", "end_date"], msg: "Field required", input: null }] },
    });
  });

  it("cuts an interval at the last loaded day and refuses one that starts after it with 422", async () => {
    // At 08:00 UTC (09:00 in Budapest) on 2024-03-11 the last loaded day is 2024-03-10.
    const cut = await changes(seededKey, "2024-03-08", "2024-03-14");
    expect(cut.status).toBe(200);
    expect(cut.body.end_date).toBe("2024-03-10");
    expect(cut.body.changed_items.every((c) => c.change <= "2024-03-10")).toBe(true);
    const early = await changes(seededKey, "2024-03-11", "2024-03-12");
    expect(early.status).toBe(422);
    expect(early.body).toHaveProperty("message");
  });

  it("uses the configured parameter names", async () => {
    const custom = await startHarness({ changesFromParam: "from", changesToParam: "to" });
    try {
      const list = (await custom.json<{ list_key: string }>("POST", "/v2/lists", { list_name: "p" })).body
        .list_key;
      expect(
        (await custom.json("GET", `/v2/lists/${list}/changes?from=2024-03-01&to=2024-03-02`)).status,
      ).toBe(200);
      const defaults = await custom.json<{ detail: { loc: string[] }[] }>(
        "GET",
        `/v2/lists/${list}/changes?start_date=2024-03-01&end_date=2024-03-02`,
      );
      expect(defaults.status).toBe(422);
      expect(defaults.body.detail.map((d) => d.loc)).toEqual([
        ["query", "from"],
        ["query", "to"],
      ]);
    } finally {
      await custom.emulator.close();
    }
  });
});

describe("activation at the 06:00 load", () => {
  it("reports changes of an item only from the day of the first load after adding", async () => {
    const [taxId] = watchableTaxIds(h.emulator, 1);
    // Added at 09:00 Budapest time on 03-11: the next load is 03-12 06:00.
    await h.json("POST", `/v2/lists/${key}/items`, { tax_ids: [taxId] });
    const item = h.emulator.listsSnapshot().find((l) => l.list_key === key)!.items[0]!;
    expect(item).toEqual({ tax_id: taxId, added_at: "2024-03-11", active_from: "2024-03-12" });
    for (const day of ["2024-03-11", "2024-03-12", "2024-03-13"]) {
      h.emulator.addChange({
        tax_id: taxId!,
        change: day,
        chapter: "general",
        changed_headings: ["address"],
      });
    }
    h.emulator.setClock("2024-03-14T04:59:00Z"); // 05:59 in Budapest: 03-13 not loaded yet
    const before = await changes(key, "2024-03-08", "2024-03-14");
    expect(before.body.end_date).toBe("2024-03-12");
    expect(
      before.body.changed_items
        .filter((c) => c.chapter === "general" && c.changed_headings[0] === "address")
        .map((c) => c.change),
    ).toContain("2024-03-12");
    expect(before.body.changed_items.some((c) => c.change < "2024-03-12")).toBe(false);
    h.emulator.advance(60_000); // 06:00 in Budapest: the load of 03-13 is done
    const after = await changes(key, "2024-03-08", "2024-03-14");
    expect(after.body.end_date).toBe("2024-03-13");
    expect(after.body.changed_items.map((c) => c.change)).toContain("2024-03-13");
    h.emulator.setClock(MORNING);
  });

  it("activates an item added before 06:00 on the same day", async () => {
    const list = (await h.json<{ list_key: string }>("POST", "/v2/lists", { list_name: "early" })).body
      .list_key;
    h.emulator.setClock("2024-03-11T03:30:00Z"); // 04:30 in Budapest
    const [, taxId] = watchableTaxIds(h.emulator, 2);
    await h.json("POST", `/v2/lists/${list}/items`, { tax_ids: [taxId] });
    expect(h.emulator.listsSnapshot().find((l) => l.list_key === list)!.items[0]!.active_from).toBe(
      "2024-03-11",
    );
    h.emulator.setClock(MORNING);
  });
});

describe("change files", () => {
  it("serves each change's file at its path on the separate file origin, without a key", async () => {
    expect(new URL(h.emulator.fileBaseUrl).origin).not.toBe(h.emulator.url);
    const { body } = await changes(seededKey, "2024-02-05", "2024-02-11");
    for (const item of body.changed_items.slice(0, 5)) {
      expect(item.path.startsWith(`${h.emulator.fileBaseUrl}/${item.change}/`)).toBe(true);
      const res = await fetch(item.path);
      expect(res.status).toBe(200);
      const file = (await res.json()) as Record<string, unknown>;
      expect(file).toMatchObject({ tax_id: item.tax_id, date: item.change, chapter: item.chapter });
      expect((file.changes as Array<{ heading: string }>).map((c) => c.heading)).toEqual(
        item.changed_headings,
      );
    }
    const fileRequests = h.emulator.requests().filter((r) => r.origin === "files");
    expect(fileRequests.length).toBeGreaterThanOrEqual(5);
    expect(fileRequests.every((r) => r.endpoint === "GET /files" && r.status === 200)).toBe(true);
    expect((await fetch(`${h.emulator.fileBaseUrl}/2024-02-05/companies/00000000_1.json`)).status).toBe(404);
    // The API origin does not serve files when they have their own origin.
    expect((await fetch(`${h.emulator.url}${new URL(body.changed_items[0]!.path).pathname}`)).status).toBe(
      404,
    );
  });

  it("gives the same change the same record through two lists", async () => {
    const shared = h.emulator
      .listsSnapshot()[0]!
      .items.slice(0, 5)
      .map((i) => i.tax_id);
    const other = await startHarness({
      separateFileOrigin: true,
      lists: [
        { name: "one", createdAt: "2024-01-02", taxIds: shared },
        { name: "two", createdAt: "2024-01-05", taxIds: shared.slice(0, 3) },
      ],
    });
    try {
      const [one, two] = other.emulator.listsSnapshot();
      const get = (k: string) =>
        other.json<ChangesBody>("GET", `/v2/lists/${k}/changes?start_date=2024-02-01&end_date=2024-02-07`);
      const a = (await get(one!.list_key)).body.changed_items;
      const b = (await get(two!.list_key)).body.changed_items;
      expect(b.length).toBeGreaterThan(0);
      for (const item of b) expect(a).toContainEqual(item);
    } finally {
      await other.emulator.close();
    }
  });
});

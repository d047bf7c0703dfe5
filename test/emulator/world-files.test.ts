/**
 * Shared change files (one per business form and day, several businesses in it, entries out of
 * order) and changes added with exact content, in a shared file or a file of their own.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChangedItem,
  changesBetween,
  type Harness,
  startHarness,
  type ValueEntry,
  watchableTaxIds,
} from "./harness.ts";

interface SharedFile {
  date: string;
  business_form: string;
  changes: Array<Required<ValueEntry>>;
}

const SHARED_PATH = /\/files\/(\d{4}-\d{2}-\d{2})\/(companies|self_employed|civil_orgs)\/changes\.json$/;

let h: Harness;
let listKey: string;
let items: ChangedItem[];
const files = new Map<string, SharedFile>();
const read = async (path: string) => {
  const res = await fetch(path);
  return { status: res.status, body: (await res.json()) as SharedFile };
};

beforeAll(async () => {
  h = await startHarness({
    sharedFiles: true,
    lists: [
      { name: "suppliers", createdAt: "2024-01-02", size: 60 },
      { name: "b", createdAt: "2024-02-01", size: 20 },
    ],
  });
  listKey = h.emulator.listsSnapshot()[0]!.list_key;
  items = await changesBetween(h, listKey, "2024-02-01", "2024-02-28");
  for (const path of new Set(items.map((i) => i.path))) files.set(path, (await read(path)).body);
});
afterAll(() => h.emulator.close());

describe("shared files", () => {
  it("points every changed item of a form and day at one file holding each business's entries", () => {
    expect(items.length).toBeGreaterThan(50);
    for (const item of items) {
      const m = SHARED_PATH.exec(item.path);
      expect(m, item.path).not.toBeNull();
      expect(m![1]).toBe(item.change);
      const entries = files
        .get(item.path)!
        .changes.filter((e) => e.tax_id === item.tax_id && e.chapter === item.chapter);
      // Every heading the change lists has its entry, and nothing else is filed under it.
      expect(new Set(entries.map((e) => e.heading))).toEqual(new Set(item.changed_headings));
    }
    const businessesPerFile = [...files.values()].map((f) => new Set(f.changes.map((e) => e.tax_id)).size);
    expect(Math.max(...businessesPerFile)).toBeGreaterThanOrEqual(3);
    for (const [path, file] of files) {
      const [, date, form] = SHARED_PATH.exec(path)!;
      expect(file).toMatchObject({ date, business_form: form });
      for (const entry of file.changes) {
        expect(Object.keys(entry).sort()).toEqual(["chapter", "heading", "new_value", "old_value", "tax_id"]);
      }
    }
  });

  it("holds several businesses' changes of a day, in an order that is neither listing nor tax id order", async () => {
    const byPath = new Map<string, ChangedItem[]>();
    for (const item of items) byPath.set(item.path, [...(byPath.get(item.path) ?? []), item]);
    const shared = [...byPath].filter(([, list]) => new Set(list.map((i) => i.tax_id)).size >= 2);
    expect(shared.length).toBeGreaterThan(5);
    let outOfOrder = 0;
    for (const [path, list] of shared) {
      const order = files.get(path)!.changes.map((e) => e.tax_id);
      const listed = list.map((i) => i.tax_id).filter((t) => order.includes(t));
      const firstSeen = order.filter((t, i) => order.indexOf(t) === i && listed.includes(t));
      if (order.join() !== [...order].sort().join() && firstSeen.join() !== [...new Set(listed)].join()) {
        outOfOrder += 1;
      }
    }
    expect(outOfOrder).toBeGreaterThan(0);
    // The order is drawn from the seed: every read gives the same file.
    const [path] = shared[0]!;
    expect((await read(path)).body).toEqual(files.get(path));
  });

  it("holds entries of businesses no list watches, a bounded few per file", () => {
    const watched = new Set(h.emulator.listsSnapshot().flatMap((l) => l.items.map((i) => i.tax_id)));
    let strangers = 0;
    for (const file of files.values()) {
      const others = new Set(file.changes.map((e) => e.tax_id).filter((t) => !watched.has(t)));
      expect(others.size).toBeLessThanOrEqual(16);
      strangers += others.size;
    }
    expect(strangers).toBeGreaterThan(0);
  });

  it("keeps the entries of an item taken off its list in the files of days it was watched", async () => {
    const item = items.find((i) => i.change >= "2024-02-10")!;
    const before = files.get(item.path)!;
    const removed = await h.json("DELETE", `/v2/lists/${listKey}/items`, { tax_ids: [item.tax_id] });
    expect(removed.body).toEqual({ success: [item.tax_id], failed: [] });
    expect((await read(item.path)).body).toEqual(before);
    await h.json("POST", `/v2/lists/${listKey}/items`, { tax_ids: [item.tax_id] });
  });

  it("answers 404 for a day not loaded yet and for a form that does not exist", async () => {
    const base = h.emulator.fileBaseUrl;
    expect((await read(`${base}/2024-03-11/companies/changes.json`)).status).toBe(404);
    expect((await read(`${base}/2024-02-05/nonsense/changes.json`)).status).toBe(404);
    expect((await fetch(`${base}/2024-02-05/companies/other.json`)).status).toBe(404);
  });
});

describe("changes added with exact content", () => {
  it("serves the values given, a heading twice, in a file of its own or the shared one", async () => {
    const [taxId] = h.emulator.listsSnapshot()[0]!.items.map((i) => i.tax_id);
    const twice = [
      { heading: "long_name", old_value: "Alfa Kft.", new_value: "Béta Kft." },
      { heading: "long_name", old_value: "Béta Kft.", new_value: "Gamma Kft." },
    ];
    const own = h.emulator.addChange({
      tax_id: taxId!,
      change: "2024-02-20",
      chapter: "9",
      values: twice,
      file: "own",
    });
    expect(own).toMatchObject({ chapter: "9", changed_headings: ["long_name"] });
    expect(String(own.path)).toMatch(new RegExp(`/2024-02-20/[a-z_]+/${taxId}_100\\.json$`));
    expect(await (await fetch(String(own.path))).json()).toMatchObject({
      tax_id: taxId,
      chapter: "9",
      changed_headings: ["long_name"],
      changes: twice,
    });
    const shared = h.emulator.addChange({
      tax_id: taxId!,
      change: "2024-02-20",
      chapter: "3",
      values: [{ heading: "long_name", old_value: "Gamma Kft.", new_value: "Delta Kft." }],
    });
    expect(String(shared.path)).toMatch(SHARED_PATH);
    const entries = (await read(String(shared.path))).body.changes.filter((e) => e.tax_id === taxId);
    expect(entries).toContainEqual({
      tax_id: taxId,
      chapter: "3",
      heading: "long_name",
      old_value: "Gamma Kft.",
      new_value: "Delta Kft.",
    });
    expect(entries.some((e) => e.chapter === "9")).toBe(false);
  });

  it("puts changes asked for in a shared file there even when the world has none", async () => {
    const plain = await startHarness();
    try {
      const companies = plain.emulator
        .sampleBusinesses({ type: "companies", limit: 3 })
        .map((b) => String(b.tax_id));
      const paths = companies.map(
        (taxId, i) =>
          plain.emulator.addChange({
            tax_id: taxId,
            change: "2024-03-01",
            chapter: "finance",
            values: [{ heading: "bank_accounts", old_value: [], new_value: [{ bank_account: `acc-${i}` }] }],
            file: "shared",
          }).path,
      );
      expect(new Set(paths).size).toBe(1);
      const file = (await (await fetch(String(paths[0]))).json()) as SharedFile;
      expect(file.business_form).toBe("companies");
      expect(file.changes.map((e) => e.tax_id).sort()).toEqual([...companies].sort());
      // Without a choice, a change gets its own file, as before.
      const own = plain.emulator.addChange({
        tax_id: companies[0]!,
        change: "2024-03-01",
        chapter: "general",
        changed_headings: ["address"],
      });
      expect(String(own.path)).toMatch(/_101\.json$/);
    } finally {
      await plain.emulator.close();
    }
  });

  it("lists added changes by the seq given, whatever order they were added in", async () => {
    const [, taxId] = watchableTaxIds(h.emulator, 2);
    const list = (
      await h.json<{ list_key: string }>("POST", "/_emulator/lists", {
        name: "seq",
        createdAt: "2024-02-01",
        taxIds: [taxId],
      })
    ).body.list_key;
    const values = (o: string, n: string) => [{ heading: "address", old_value: o, new_value: n }];
    h.emulator.addChange({
      tax_id: taxId!,
      change: "2024-02-21",
      chapter: "9",
      values: values("A", "B"),
      seq: 105,
    });
    h.emulator.addChange({
      tax_id: taxId!,
      change: "2024-02-21",
      chapter: "3",
      values: values("B", "C"),
      seq: 104,
    });
    const listed = (await changesBetween(h, list, "2024-02-21", "2024-02-21")).filter(
      (i) => i.tax_id === taxId && ["3", "9"].includes(i.chapter),
    );
    expect(listed.map((i) => i.chapter)).toEqual(["3", "9"]);
    expect(() =>
      h.emulator.addChange({
        tax_id: taxId!,
        change: "2024-02-21",
        chapter: "1",
        values: values("C", "D"),
        seq: 104,
      }),
    ).toThrow(/seq 104 is taken/);
  });

  it("refuses bad content through the admin route with 400 naming the field", async () => {
    const [taxId] = watchableTaxIds(h.emulator, 1);
    const post = async (body: unknown) => {
      const res = await fetch(`${h.emulator.url}/_emulator/changes`, {
        method: "POST",
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as { message?: string; path?: string } };
    };
    const base = { tax_id: taxId, change: "2024-02-22", chapter: "general" };
    expect(await post({ ...base, values: [{ old_value: "x" }] })).toEqual({
      status: 400,
      body: { message: "values[0].heading must be a non-empty string" },
    });
    expect((await post({ ...base, values: [] })).body.message).toMatch(/^values must be a non-empty array/);
    expect((await post({ ...base, changed_headings: ["address"], file: "both" })).body.message).toBe(
      'file must be "own" or "shared", not "both"',
    );
    expect((await post({ ...base, changed_headings: ["address"], seq: 3 })).body.message).toBe(
      "seq must be an integer of at least 100",
    );
    expect((await post({ ...base })).body.message).toMatch(/changed_headings must be an array/);
    const ok = await post({
      ...base,
      values: [{ heading: "address", old_value: "x", new_value: "y" }],
      file: "shared",
    });
    expect(ok.status).toBe(201);
    expect(ok.body.path).toMatch(SHARED_PATH);
  });
});

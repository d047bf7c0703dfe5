/**
 * Values with a history (old = the previous change's new, a status never to itself), same-day
 * chains across chapters listed against event order, and a heading changed twice in one file.
 * Files of their own here, so each entry is tied to its changed item.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChangedItem,
  chainOfDay,
  changesBetween,
  type Harness,
  startHarness,
  type ValueEntry,
} from "./harness.ts";

interface OwnFile {
  tax_id: string;
  date: string;
  chapter: string;
  changed_headings: string[];
  changes: ValueEntry[];
}

interface Step extends ValueEntry {
  date: string;
  chapter: string;
  listed: number;
}

const OPTIONS = { sameDayChains: true, lists: [{ name: "history", createdAt: "2023-03-01", size: 40 }] };

let h: Harness;
let items: ChangedItem[];
const files = new Map<string, OwnFile>();
/** tax id -> heading -> steps, in listing order. */
const steps = new Map<string, Map<string, Step[]>>();

beforeAll(async () => {
  h = await startHarness(OPTIONS);
  const listKey = h.emulator.listsSnapshot()[0]!.list_key;
  items = await changesBetween(h, listKey, "2023-03-01", "2024-03-10");
  for (const [listed, item] of items.entries()) {
    const file = (await (await fetch(item.path)).json()) as OwnFile;
    files.set(item.path, file);
    const byHeading = steps.get(item.tax_id) ?? new Map<string, Step[]>();
    for (const entry of file.changes) {
      const list = byHeading.get(entry.heading) ?? [];
      list.push({ ...entry, date: item.change, chapter: item.chapter, listed });
      byHeading.set(entry.heading, list);
    }
    steps.set(item.tax_id, byHeading);
  }
});
afterAll(() => h.emulator.close());

/** The steps of one business and heading in event order, each day's chained from the data. */
function eventOrder(list: readonly Step[]): Step[] {
  const days = [...new Set(list.map((s) => s.date))].sort();
  return days.flatMap((day) => {
    const chain = chainOfDay(list.filter((s) => s.date === day));
    if (!chain) throw new Error(`the values of ${day} do not form one chain`);
    return chain;
  });
}

describe("value history", () => {
  it("chains sameDayChains to a history", () => {
    expect(h.emulator.world()).toEqual({
      sharedFiles: false,
      sameDayChains: true,
      valueHistory: true,
      currentRecords: false,
    });
  });

  it("gives each change the previous change's new value as its old one, per business and heading", () => {
    let linked = 0;
    for (const byHeading of steps.values()) {
      for (const list of byHeading.values()) {
        const ordered = eventOrder(list);
        for (let i = 1; i < ordered.length; i++) {
          expect(ordered[i]!.old_value).toEqual(ordered[i - 1]!.new_value);
          expect(ordered[i]!.new_value).not.toEqual(ordered[i]!.old_value);
          linked += 1;
        }
      }
    }
    expect(linked).toBeGreaterThan(1000);
  });

  it("never changes a status to itself, and keeps it among the statuses of the business's form", () => {
    const forms = new Map(items.map((i) => [i.tax_id, i.change_type]));
    let count = 0;
    for (const [taxId, byHeading] of steps) {
      const allowed = forms.get(taxId) === "self_employed" ? [0, 1, 2] : [0, 1];
      for (const s of byHeading.get("status") ?? []) {
        expect(s.old_value).not.toBe(s.new_value);
        expect(allowed).toContain(s.old_value);
        expect(allowed).toContain(s.new_value);
        count += 1;
      }
    }
    expect(count).toBeGreaterThan(10);
  });

  it("chains same-day changes of a heading across chapters, the later one listed and named first", () => {
    let chains = 0;
    for (const byHeading of steps.values()) {
      for (const list of byHeading.values()) {
        for (const day of new Set(list.map((s) => s.date))) {
          const chapters = new Set(list.filter((s) => s.date === day).map((s) => s.chapter));
          if (chapters.size < 2) continue;
          const chain = chainOfDay(list.filter((s) => s.date === day))!;
          const [first, last] = [chain[0]!, chain.at(-1)!];
          expect(last.chapter).toBe("corrections");
          // Neither the listing (storage) order nor the chapter names give the event order.
          expect(last.listed).toBeLessThan(first.listed);
          expect(last.chapter < first.chapter).toBe(true);
          expect(last.new_value).not.toEqual(first.old_value);
          chains += 1;
        }
      }
    }
    expect(chains).toBeGreaterThan(5);
  });

  it("lists a heading twice in one file as [A->B, B->C], the heading once among changed_headings", () => {
    let repeated = 0;
    for (const file of files.values()) {
      for (const heading of file.changed_headings) {
        const entries = file.changes.filter((e) => e.heading === heading);
        if (entries.length < 2) continue;
        expect(entries).toHaveLength(2);
        expect(entries[1]!.old_value).toEqual(entries[0]!.new_value);
        expect(entries[1]!.new_value).not.toEqual(entries[0]!.old_value);
        expect(file.changed_headings.filter((x) => x === heading)).toHaveLength(1);
        repeated += 1;
      }
    }
    expect(repeated).toBeGreaterThan(5);
  });

  it("produces any interval on demand: a fresh emulator serves the last week's files alike", async () => {
    const fresh = await startHarness(OPTIONS);
    try {
      const lastWeek = items.filter((i) => i.change >= "2024-03-04");
      expect(lastWeek.length).toBeGreaterThan(3);
      for (const item of lastWeek) {
        const path = item.path.replace(h.emulator.fileBaseUrl, fresh.emulator.fileBaseUrl);
        expect(await (await fetch(path)).json()).toEqual(files.get(item.path));
      }
    } finally {
      await fresh.emulator.close();
    }
  });

  it("takes a given value into the history: the next change starts from it", async () => {
    // A generated address change with no earlier address change in the year watched.
    const [taxId, target] = [...steps]
      .map(([t, byHeading]) => [t, eventOrder(byHeading.get("address") ?? [])[0]] as const)
      .find(([, first]) => first !== undefined && first.date > "2023-03-02")!;
    const address = "1011 Budapest, Fő utca 1.";
    h.emulator.addChange({
      tax_id: taxId,
      change: "2023-03-01",
      chapter: "general",
      values: [{ heading: "address", old_value: "earlier", new_value: address }],
    });
    const item = items.find(
      (i) => i.tax_id === taxId && i.change === target!.date && i.chapter === target!.chapter,
    )!;
    const file = (await (await fetch(item.path)).json()) as OwnFile;
    const entry = file.changes.find((e) => e.heading === "address")!;
    expect(target!.old_value).not.toBe(address);
    expect(entry.old_value).toBe(address);
    expect(entry.new_value).not.toBe(address);
  });
});

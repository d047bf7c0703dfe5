/**
 * Current search records (the new values of each heading's latest change loaded by now), the
 * realistic switch, the world admin route and the command's flags.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEADING_FIELDS } from "../../src/emulator/heading-values.ts";
import { startEmulatorProcess } from "../helpers/emulator-process.ts";
import {
  type ChangedItem,
  chainOfDay,
  changesBetween,
  type Harness,
  MORNING,
  type SearchPage,
  startHarness,
  type ValueEntry,
} from "./harness.ts";

let h: Harness;
let sample: Array<Record<string, unknown>>;
let items: ChangedItem[];

beforeAll(async () => {
  h = await startHarness({ realistic: true });
  sample = h.emulator.sampleBusinesses({ limit: 80 }).filter((b) => b.type !== "budget_orgs");
  const list = await h.json<{ list_key: string }>("POST", "/_emulator/lists", {
    name: "records",
    createdAt: "2023-03-01",
    taxIds: sample.slice(0, 30).map((b) => b.tax_id),
  });
  items = await changesBetween(h, list.body.list_key, "2023-03-01", "2024-03-10");
});
afterAll(() => h.emulator.close());

const byRegNumber = async (harness: Harness, record: Record<string, unknown>) => {
  const page = await harness.json<SearchPage>("GET", `/v1/reg-numbers?value=${record.registration_number}`);
  return page.body.results.find((r) => String(r.tax_number).startsWith(String(record.tax_id)))!;
};

describe("current records", () => {
  it("show the new value of each heading's latest change loaded by now", async () => {
    expect(h.emulator.world()).toEqual({
      sharedFiles: true,
      sameDayChains: true,
      valueHistory: true,
      currentRecords: true,
    });
    const entries = new Map<string, Array<ValueEntry & { date: string }>>();
    for (const path of new Set(items.map((i) => i.path))) {
      const file = (await (await fetch(path)).json()) as { date: string; changes: ValueEntry[] };
      for (const e of file.changes) {
        const key = `${e.tax_id}|${e.heading}`;
        entries.set(key, [...(entries.get(key) ?? []), { ...e, date: file.date }]);
      }
    }
    let compared = 0;
    const adminSample = h.emulator.sampleBusinesses({ limit: 80 });
    for (const record of sample.slice(0, 30)) {
      const shown = await byRegNumber(h, record);
      for (const [heading, field] of Object.entries(HEADING_FIELDS)) {
        const list = entries.get(`${record.tax_id}|${heading}`);
        if (!list) continue;
        const lastDay = list
          .map((e) => e.date)
          .sort()
          .at(-1)!;
        const last = chainOfDay(list.filter((e) => e.date === lastDay))!.at(-1)!;
        expect(shown[field] ?? null).toEqual(last.new_value);
        compared += 1;
      }
      // The admin sample shows the same record.
      expect(adminSample.find((b) => b.tax_id === record.tax_id)).toEqual({
        tax_id: record.tax_id,
        ...shown,
      });
    }
    expect(compared).toBeGreaterThan(60);
  });

  it("move with the clock: a change shows, and its account is found, once its day is loaded", async () => {
    const company = sample.find((b) => b.type === "companies")!;
    const before = await byRegNumber(h, company);
    const oldAccount = (before.bank_accounts as Array<{ bank_account: string }>)[0]!.bank_account;
    const newAccount = "11773016-99999999-00000000";
    h.emulator.addChange({
      tax_id: String(company.tax_id),
      change: "2024-03-11",
      chapter: "finance",
      values: [
        {
          heading: "bank_accounts",
          old_value: before.bank_accounts,
          new_value: [{ bank_account: newAccount }],
        },
      ],
    });
    const byAccount = async (value: string) =>
      (await h.json<SearchPage>("GET", `/v1/bank-accounts?value=${value}`)).body.results;
    // 2024-03-11 is not loaded at 09:00 that day.
    expect((await byRegNumber(h, company)).bank_accounts).toEqual(before.bank_accounts);
    expect(await byAccount(newAccount)).toEqual([]);
    expect((await byAccount(oldAccount)).map((r) => r.tax_number)).toEqual([before.tax_number]);
    h.emulator.setClock("2024-03-12T08:00:00Z");
    try {
      expect((await byRegNumber(h, company)).bank_accounts).toEqual([{ bank_account: newAccount }]);
      expect((await byAccount(newAccount)).map((r) => r.tax_number)).toEqual([before.tax_number]);
      expect((await byAccount(newAccount.slice(0, 17))).map((r) => r.tax_number)).toEqual([
        before.tax_number,
      ]);
      expect(await byAccount(oldAccount)).toEqual([]);
    } finally {
      h.emulator.setClock(MORNING);
    }
  });

  it("are found by name search under the present name, no longer the founding one", async () => {
    const business = sample[30]!;
    // The name it was founded with, as an emulator of the same seed without the switches shows it.
    const plain = await startHarness();
    const founding = String(
      plain.emulator.sampleBusinesses({ limit: 80 }).find((b) => b.tax_id === business.tax_id)!.full_name,
    );
    await plain.emulator.close();
    h.emulator.addChange({
      tax_id: String(business.tax_id),
      change: "2024-03-01",
      chapter: "general",
      values: [{ heading: "long_name", old_value: founding, new_value: "Qwertz Új Név Kft." }],
    });
    const findBy = async (value: string) => {
      for (let page = 1; ; page++) {
        const res = await h.json<SearchPage>(
          "GET",
          `/v1/names?value=${encodeURIComponent(value)}&page=${page}`,
        );
        const found = res.body.results.find((r) => r.tax_number === business.tax_number);
        if (found || !res.body.has_next) return found;
      }
    };
    expect((await findBy("Qwertz Új Név"))?.full_name).toBe("Qwertz Új Név Kft.");
    expect(await findBy(founding)).toBeUndefined();
  });

  it("stay the founding record without the switch", async () => {
    const plain = await startHarness();
    try {
      const [record] = plain.emulator.sampleBusinesses({ type: "companies", limit: 1 });
      plain.emulator.addChange({
        tax_id: String(record!.tax_id),
        change: "2024-03-01",
        chapter: "general",
        values: [{ heading: "long_name", old_value: record!.full_name, new_value: "Más Kft." }],
      });
      expect((await byRegNumber(plain, record!)).full_name).toBe(record!.full_name);
    } finally {
      await plain.emulator.close();
    }
  });
});

describe("switching the world", () => {
  const admin = async (method: string, body?: unknown) => {
    const res = await fetch(`${h.emulator.url}/_emulator/world`, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("reads and sets the switches through the admin route and in process", async () => {
    const plain = await startHarness();
    try {
      const route = async (method: string, body?: unknown) => {
        const res = await fetch(`${plain.emulator.url}/_emulator/world`, {
          method,
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      };
      const off = { sharedFiles: false, sameDayChains: false, valueHistory: false, currentRecords: false };
      expect((await route("GET")).body).toEqual(off);
      expect((await route("POST", { sharedFiles: true })).body).toEqual({ ...off, sharedFiles: true });
      const [company] = plain.emulator.sampleBusinesses({ type: "companies", limit: 1 });
      const item = plain.emulator.addChange({
        tax_id: String(company!.tax_id),
        change: "2024-03-01",
        chapter: "general",
        changed_headings: ["address"],
      });
      expect(String(item.path)).toMatch(/\/2024-03-01\/companies\/changes\.json$/);
      expect(plain.emulator.setWorld({ sharedFiles: false, valueHistory: true })).toEqual({
        ...off,
        valueHistory: true,
      });
      expect((await route("POST", { realistic: true })).body).toEqual({
        sharedFiles: true,
        sameDayChains: true,
        valueHistory: true,
        currentRecords: true,
      });
    } finally {
      await plain.emulator.close();
    }
  });

  it("refuses unknown switches and values that are not booleans with 400", async () => {
    expect(await admin("POST", { sharedFile: true })).toEqual({
      status: 400,
      body: { message: "unknown switch sharedFile" },
    });
    expect(await admin("POST", { currentRecords: "yes" })).toEqual({
      status: 400,
      body: { message: "currentRecords must be a boolean" },
    });
    expect(() => h.emulator.setWorld({ realistic: 1 as unknown as boolean })).toThrow(
      "invalid world switches: realistic must be a boolean",
    );
  });
});

describe("regwatch emulator flags", () => {
  it("turns switches on by flag", async () => {
    const emulator = await startEmulatorProcess(["--same-day-chains", "--current-records", "--frozen"]);
    try {
      expect(await emulator.admin("world")).toEqual({
        sharedFiles: false,
        sameDayChains: true,
        valueHistory: true,
        currentRecords: true,
      });
    } finally {
      await emulator.stop();
    }
  }, 30_000);
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { foldText } from "../../src/emulator/name-search.ts";
import { type Harness, type SearchPage, startHarness } from "./harness.ts";

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ searchMonthlyQuota: 100_000 });
});
afterAll(() => h.emulator.close());

const names = (page: SearchPage) => page.results.map((r) => String(r.full_name));
const search = (endpoint: string, params: Record<string, string>) =>
  h.json<SearchPage>("GET", `/v1/${endpoint}?${new URLSearchParams(params)}`);

describe("name search", () => {
  it("returns accented Hungarian names and ignores accents in the query", async () => {
    const accented = await search("names", { value: "Kovács" });
    const plain = await search("names", { value: "kovacs" });
    expect(accented.status).toBe(200);
    expect(accented.body.results.length).toBeGreaterThan(0);
    expect(names(plain.body)).toEqual(names(accented.body));
    expect(names(accented.body).some((n) => n.includes("Kovács"))).toBe(true);
  });

  it("matches the beginning of a word, never its middle", async () => {
    const { body } = await search("names", { value: "ovacs" });
    for (const name of names(body))
      expect(
        foldText(name)
          .split(" ")
          .some((w) => w.startsWith("ovacs")),
      ).toBe(true);
    const { body: all } = await search("names", { value: "kovacs" });
    for (const name of names(all))
      expect(
        foldText(name)
          .split(" ")
          .some((w) => w.startsWith("kovacs")),
      ).toBe(true);
  });

  it("requires every word of a multi-word query to start a word of the name", async () => {
    const { body } = await search("names", { value: "kovacs tars" });
    expect(body.results.length).toBeGreaterThan(0);
    for (const name of names(body)) {
      const words = foldText(name).split(" ");
      expect(words.some((w) => w.startsWith("kovacs"))).toBe(true);
      expect(words.some((w) => w.startsWith("tars"))).toBe(true);
    }
  });

  it("matches a query typed without spaces from a word beginning on", async () => {
    const { body } = await search("names", { value: "kovacsestars" });
    expect(body.results.length).toBeGreaterThan(0);
    for (const name of names(body)) expect(foldText(name).replace(/ /g, "")).toContain("kovacsestars");
    const { body: middle } = await search("names", { value: "ovacsestars" });
    expect(middle.results).toEqual([]);
  });

  it("refuses fewer than three letters and a missing value with 400 and a message", async () => {
    for (const params of [{ value: "ko" }, { value: " . " }, {}] as Array<Record<string, string>>) {
      const res = await search("names", params);
      expect(res.status).toBe(400);
      expect(res.body).toHaveProperty("message");
    }
  });

  it("caps a search at 50 hits in pages of 10, lowered by limit", async () => {
    const pages: SearchPage[] = [];
    for (let page = 1; ; page++) {
      const { body } = await search("names", { value: "kft", page: String(page) });
      pages.push(body);
      expect(body.current_page).toBe(page);
      if (!body.has_next) break;
    }
    expect(pages).toHaveLength(5);
    expect(pages.flatMap((p) => p.results)).toHaveLength(50);
    const limited = await search("names", { value: "kft", limit: "12" });
    expect(limited.body.has_next).toBe(true);
    const second = await search("names", { value: "kft", limit: "12", page: "2" });
    expect(second.body.results).toHaveLength(2);
    expect(second.body.has_next).toBe(false);
    expect((await search("names", { value: "kft", limit: "0" })).status).toBe(400);
  });

  it("answers a search without hits with 200 and an empty page", async () => {
    const { status, body } = await search("names", { value: "xyzzyqq" });
    expect(status).toBe(200);
    expect(body).toEqual({ current_page: 1, has_next: false, results: [] });
  });
});

describe("registration number search", () => {
  it("finds each business type by its own format", async () => {
    const formats: Record<string, RegExp> = {
      companies: /^\d{2}-\d{2}-\d{6}$/,
      self_employed: /^\d{8}$/,
      civil_orgs: /^\d{2}-\d{2}-\d{3}$/,
      budget_orgs: /^\d{5}$/,
    };
    for (const [type, format] of Object.entries(formats)) {
      const [business] = h.emulator.sampleBusinesses({ type, limit: 1 });
      const reg = String(business!.registration_number);
      expect(reg).toMatch(format);
      const { status, body } = await search("reg-numbers", { value: reg });
      expect(status).toBe(200);
      expect(body.results).toHaveLength(1);
      expect(body.results[0]).toMatchObject({
        type,
        registration_number: reg,
        tax_number: business!.tax_number,
      });
    }
  });

  it("returns both businesses of a tax base number that changed type, from either number", async () => {
    const [company, former] = h.emulator.sampleBusinesses({ shared: true, limit: 2 });
    expect(company!.type).toBe("companies");
    expect(former!.type).toBe("self_employed");
    expect(String(former!.tax_number).slice(0, 8)).toBe(String(company!.tax_number).slice(0, 8));
    for (const reg of [company!.registration_number, former!.registration_number]) {
      const { body } = await search("reg-numbers", { value: String(reg) });
      expect(body.results.map((r) => r.type).sort()).toEqual(["companies", "self_employed"]);
    }
  });

  it("refuses a value of no known format with 400 and finds nothing for an unused number", async () => {
    expect((await search("reg-numbers", { value: "12-34" })).status).toBe(400);
    const { status, body } = await search("reg-numbers", { value: "99999999" });
    expect(status).toBe(200);
    expect(body.results).toEqual([]);
  });
});

describe("bank account search", () => {
  it("finds a company by its full account number and by the 17-character prefix", async () => {
    const [company] = h.emulator.sampleBusinesses({ type: "companies", limit: 1 });
    const account = (company!.bank_accounts as Array<{ bank_account: string }>)[0]!.bank_account;
    expect(account).toMatch(/^\d{8}-\d{8}-\d{8}$/);
    for (const value of [account, account.slice(0, 17)]) {
      const { body } = await search("bank-accounts", { value });
      expect(body.results).toHaveLength(1);
      expect(body.results[0]!.tax_number).toBe(company!.tax_number);
    }
  });

  it("searches companies only and refuses other shapes with 400", async () => {
    const others = h.emulator.sampleBusinesses({ type: "self_employed", limit: 3 });
    for (const b of others) expect(b).not.toHaveProperty("bank_accounts");
    for (const value of ["1170000", "11700000-1234567", "11700000-12345678-1"]) {
      expect((await search("bank-accounts", { value })).status).toBe(400);
    }
  });
});

describe("search access", () => {
  it("refuses a missing or wrong key with 401 and a message", async () => {
    for (const headers of [{}, { "x-api-key": "wrong" }] as Array<Record<string, string>>) {
      const res = await h.call("GET", "/v1/names?value=kovacs", undefined, headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toHaveProperty("message");
    }
  });

  it("counts every request against the monthly quota and answers 429 beyond it", async () => {
    const small = await startHarness({ searchMonthlyQuota: 3 });
    try {
      const statuses: number[] = [];
      for (let page = 1; page <= 4; page++) {
        statuses.push((await small.call("GET", `/v1/names?value=kovacs&page=${page}`)).status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      // A new calendar month of the simulated clock opens a new quota.
      small.emulator.setClock("2024-04-01T08:00:00Z");
      expect((await small.call("GET", "/v1/names?value=kovacs")).status).toBe(200);
    } finally {
      await small.emulator.close();
    }
  });
});

/**
 * checkChunk --online for rows without a tax number: an account no local source knows is asked
 * through the registry's bank-account search (against the emulator), what comes back is saved and
 * names the payee; a question is asked once per batch however many chunks repeat it, and once the
 * quota is spent the rows say they were not checked online.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSearchClient, type SearchClient, SearchQuota } from "../../src/api/search-client.ts";
import { loadConfig, requireSearch } from "../../src/config.ts";
import { type RunningEmulator, startEmulator } from "../../src/emulator/index.ts";
import type { PaymentRow } from "../../src/formats/batch-row.ts";
import { createLogger } from "../../src/logger.ts";
import { type OnlineSession, startOnline } from "../../src/payments/check-chunk.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { checkRows, paymentRow } from "./chunk-fixtures.ts";
import { account } from "./fixtures.ts";

let test: TestDatabase;
let emulator: RunningEmulator;
let holder: { taxId: string; account: string; name: string };
const closers: Array<() => Promise<void>> = [];

/** An account none of the emulator's businesses holds. */
const NOBODYS = account(888_001);

function client(limit: number): SearchClient {
  const config = loadConfig({ REGWATCH_SEARCH_URL: emulator.url, REGWATCH_API_KEY: emulator.apiKey });
  requireSearch(config);
  const search = createSearchClient(config, {
    log: createLogger({ level: "silent" }),
    quota: new SearchQuota(limit, 0),
  });
  closers.push(() => search.close());
  return search.client;
}

const row = (bankAccount: string, line: number) => paymentRow(null, bankAccount, { line });

const check = (rows: PaymentRow[], online: OnlineSession) => checkRows(test.db, rows, { online });

const bankSearches = () => emulator.requests().filter((r) => r.path === "/v1/bank-accounts");

beforeAll(async () => {
  test = await createTestDatabase();
  emulator = await startEmulator({
    seed: 27,
    businesses: 500,
    now: "2024-03-01T08:00:00Z",
    frozenClock: true,
  });
  const found = emulator
    .sampleBusinesses({ type: "companies", limit: 200 })
    .find((r) => r.status_code === 1 && (r.bank_accounts as unknown[]).length > 0);
  expect(found).toBeDefined();
  holder = {
    taxId: String(found!.tax_number).slice(0, 8),
    account: (found!.bank_accounts as Array<{ bank_account: string }>)[0]!.bank_account,
    name: String(found!.full_name),
  };
}, 120_000);

afterAll(async () => {
  for (const close of closers) await close();
  await emulator?.close();
  await test?.drop();
});

describe("checkChunk --online, rows without a tax number", () => {
  it("finds the holder of an unknown account through the bank-account search and saves it", async () => {
    emulator.resetLog();
    const online = startOnline(test.db, client(100));
    const [found, unknown] = await check([row(holder.account, 2), row(NOBODYS, 3)], online);
    expect(found).toMatchObject({
      taxBase: holder.taxId,
      payeeFoundBy: "account",
      registryName: holder.name,
    });
    // Found, but on no watch list: it passes with the warning.
    expect(found!.verdict).toBe("not_watched");
    expect(found!.detail).toContain(`payee found by its account: ${holder.taxId}`);
    expect(unknown!.verdict).toBe("unknown_account_holder");
    expect(unknown!.detail).toContain(
      "the registry's bank-account search (companies only) found no business holding it",
    );
    expect(unknown!.nextStep).toContain("Ask the payee for their tax number");
    expect(online).toMatchObject({ asked: 2, notChecked: 0, quotaMessage: null });
    const [saved] = await test.db.sql<{ n: number }[]>`
      select count(*)::int as n from regwatch.businesses where tax_id = ${holder.taxId}`;
    expect(saved!.n).toBe(1);

    // A later chunk of the same batch: the holder is known locally now, the empty answer is remembered.
    const [again, stillUnknown] = await check([row(holder.account, 4), row(NOBODYS, 5)], online);
    expect(again!.taxBase).toBe(holder.taxId);
    expect(stillUnknown!.verdict).toBe("unknown_account_holder");
    expect(online.asked).toBe(2);
    expect(bankSearches()).toHaveLength(2);
  });

  it("says a row was not checked online once the quota is spent, and sends nothing more", async () => {
    emulator.resetLog();
    const online = startOnline(test.db, client(0));
    const [first] = await check([row(account(888_002), 2)], online);
    expect(first!.verdict).toBe("unknown_account_holder");
    expect(first!.detail).toContain("not checked online: the monthly search quota is used up");
    const [second] = await check([row(account(888_003), 3)], online);
    expect(second!.detail).toContain("not checked online: the monthly search quota is used up");
    expect(online.quotaMessage).not.toBeNull();
    expect(online).toMatchObject({ asked: 0, notChecked: 2 });
    expect(bankSearches()).toHaveLength(0);
  });
});

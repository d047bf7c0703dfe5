import { describe, expect, it } from "vitest";
import type { PaymentRow } from "../../src/payments/batch-row.ts";
import {
  judgeRow,
  type Knowledge,
  type KnownAccount,
  type KnownBusiness,
  payeeKey,
} from "../../src/payments/verdicts.ts";

const ACCOUNT = "11773016-11111018-00000000";
const OTHER = "10400000-00000000-00000000";
const TODAY = "2024-06-30";

function row(taxId: string, bankAccount = ACCOUNT): PaymentRow {
  return {
    line: 2,
    taxId,
    bankAccount,
    amount: null,
    amountRaw: null,
    amountProblem: null,
    currency: null,
    reference: null,
    name: null,
  };
}

function knowledge(
  businesses: KnownBusiness[],
  accounts: KnownAccount[],
  onlineNotes = new Map<string, string>(),
  watched = businesses.map((b) => b.taxId),
): Knowledge {
  return {
    businesses: new Map(businesses.map((b) => [b.taxId, b])),
    watched: new Set(watched),
    accounts,
    changes: [],
    onlineNotes,
  };
}

const biz = (taxId: string, over: Partial<KnownBusiness> = {}): KnownBusiness => ({
  taxId,
  name: `Business ${taxId}`,
  statusCode: 1,
  ...over,
});
const held = (taxId: string, over: Partial<KnownAccount> = {}): KnownAccount => ({
  taxId,
  account: ACCOUNT,
  currentlyRegistered: true,
  addedOn: null,
  ...over,
});

describe("payment verdicts", () => {
  it("takes the worst verdict that applies", () => {
    const k = knowledge([biz("12345676", { statusCode: 0 })], []);
    expect(judgeRow(row("12345677", "bad"), k, { today: TODAY, holdDays: 30 }).verdict).toBe(
      "invalid_tax_id",
    );
    expect(judgeRow(row("12345676", "11773016-11111019"), k, { today: TODAY, holdDays: 30 }).verdict).toBe(
      "invalid_account",
    );
    expect(judgeRow(row("12345676"), k, { today: TODAY, holdDays: 30 }).verdict).toBe("business_ceased");
  });

  it("flags a suspended sole proprietor", () => {
    const k = knowledge([biz("12345676", { statusCode: 2 })], [held("12345676")]);
    expect(judgeRow(row("12345676"), k, { today: TODAY, holdDays: 30 })).toMatchObject({
      verdict: "business_suspended",
      detail: "the registry shows the business as suspended",
    });
  });

  it("tells apart an account held elsewhere, one given up, and a business without accounts", () => {
    const k = knowledge(
      [biz("12345676"), biz("10000001")],
      [held("10000001"), held("12345676", { account: OTHER, currentlyRegistered: true })],
    );
    expect(judgeRow(row("12345676"), k, { today: TODAY, holdDays: 30 }).detail).toBe(
      "the account is registered to 10000001 (Business 10000001)",
    );
    const given = knowledge([biz("12345676")], [held("12345676", { currentlyRegistered: false })]);
    expect(judgeRow(row("12345676"), given, { today: TODAY, holdDays: 30 }).detail).toContain("no longer is");
    const none = knowledge([biz("12345676")], []);
    expect(judgeRow(row("12345676"), none, { today: TODAY, holdDays: 30 })).toMatchObject({
      verdict: "account_not_registered",
      detail: "the registry shows no bank account for this business",
    });
  });

  it("holds an account added within the hold period, counting the boundary day", () => {
    const k = (addedOn: string) => knowledge([biz("12345676")], [held("12345676", { addedOn })]);
    expect(judgeRow(row("12345676"), k("2024-05-31"), { today: TODAY, holdDays: 30 })).toMatchObject({
      verdict: "account_recently_changed",
      detail: "the account was added on 2024-05-31, within the 30-day hold",
    });
    expect(judgeRow(row("12345676"), k("2024-05-30"), { today: TODAY, holdDays: 30 }).verdict).toBe("ok");
    expect(judgeRow(row("12345676"), k("2024-06-25"), { today: TODAY, holdDays: 0 }).verdict).toBe("ok");
  });

  it("knows a business from its accounts alone, and says when it could not ask online", () => {
    const k = knowledge([], [held("12345676")]);
    expect(judgeRow(row("12345676"), k, { today: TODAY, holdDays: 30 }).verdict).toBe("not_watched");
    const watched = knowledge([], [held("12345676")], new Map(), ["12345676"]);
    expect(judgeRow(row("12345676"), watched, { today: TODAY, holdDays: 30 }).verdict).toBe("ok");
    const note = "not checked online: the monthly search quota is used up";
    const unknown = knowledge([], [], new Map([[payeeKey("12345676", ACCOUNT), note]]));
    expect(judgeRow(row("12345676"), unknown, { today: TODAY, holdDays: 30 })).toMatchObject({
      verdict: "unknown_business",
      detail: "no record of tax id 12345676; not checked online: the monthly search quota is used up",
    });
  });
});

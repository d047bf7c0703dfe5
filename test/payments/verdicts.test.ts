import { describe, expect, it } from "vitest";
import type { PaymentRow } from "../../src/formats/batch-row.ts";
import { detailSaid } from "../../src/payments/detail-said.ts";
import {
  judgeRow,
  type Knowledge,
  type KnownAccount,
  type KnownBusiness,
  payeeKey,
} from "../../src/payments/verdicts.ts";
import type { Said } from "../../src/said.ts";
import { account } from "./fixtures.ts";

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
  onlineNotes = new Map<string, Said>(),
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
    expect(judgeRow(row("12345676"), given, { today: TODAY, holdDays: 30 })).toMatchObject({
      verdict: "account_removed",
      detail: "this business removed this account: do not pay it; confirm the new account",
    });
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
    const note = detailSaid.notCheckedOnline(detailSaid.quotaSpent(), null);
    const unknown = knowledge([], [], new Map([[payeeKey("12345676", ACCOUNT), note]]));
    expect(judgeRow(row("12345676"), unknown, { today: TODAY, holdDays: 30 })).toMatchObject({
      verdict: "unknown_business",
      detail: "no record of tax id 12345676; not checked online: the monthly search quota is used up",
    });
  });

  it("lets a verification release a change dated on or before its day, and only that", () => {
    const k = (on: string, addedOn = "2024-06-20") => ({
      ...knowledge([biz("12345676")], [held("12345676", { addedOn })]),
      verifications: new Map([
        [
          payeeKey("12345676", ACCOUNT),
          { taxId: "12345676", account: ACCOUNT, by: "Kiss Anna", on, note: null },
        ],
      ]),
    });
    const options = { today: TODAY, holdDays: 30 };
    expect(judgeRow(row("12345676"), k("2024-06-20"), options)).toMatchObject({
      verdict: "ok",
      detail: "verified by Kiss Anna on 2024-06-20",
      verifiedBy: "Kiss Anna",
      verifiedOn: "2024-06-20",
    });
    const early = judgeRow(row("12345676"), k("2024-06-19"), options);
    expect(early).toMatchObject({ verdict: "account_recently_changed", verifiedBy: null });
    expect(early.detail).toContain("verified by Kiss Anna on 2024-06-19, before the change of 2024-06-20");
    // A verification of another account of the business releases nothing.
    expect(judgeRow(row("12345676", account(5)), k("2024-06-25"), options).verdict).toBe(
      "account_not_registered",
    );
  });

  it("finds the payee of a row without a tax number by its account, or names every holder", () => {
    const options = { today: TODAY, holdDays: 30 };
    const one = knowledge([biz("12345676")], [held("12345676")]);
    expect(judgeRow({ ...row("x"), taxId: null }, one, options)).toMatchObject({
      verdict: "ok",
      taxBase: "12345676",
      payeeFoundBy: "account",
    });
    const two = knowledge([biz("12345676"), biz("10000001")], [held("12345676"), held("10000001")]);
    const shared = judgeRow({ ...row("x"), taxId: null }, two, options);
    expect(shared).toMatchObject({ verdict: "unknown_account_holder", taxBase: null, payeeFoundBy: null });
    expect(shared.detail).toContain("12345676 (Business 12345676) and 10000001 (Business 10000001)");
    const former = knowledge([biz("12345676")], [held("12345676", { currentlyRegistered: false })]);
    expect(judgeRow({ ...row("x"), taxId: null }, former, options)).toMatchObject({
      verdict: "account_removed",
      taxBase: "12345676",
      payeeFoundBy: "account",
    });
    expect(judgeRow({ ...row("x"), taxId: null }, former, options).detail).toContain(
      "the file gives no tax number; the account was registered to 12345676 (Business 12345676)",
    );
  });

  it("holds a zero, negative or unreadable amount, naming it as written, after worse verdicts", () => {
    const k = knowledge([biz("12345676")], [held("12345676")]);
    const options = { today: TODAY, holdDays: 30 };
    const amount = (amount: string | null, amountRaw: string, amountProblem: string | null = null) => ({
      ...row("12345676"),
      amount,
      amountRaw,
      amountProblem,
    });
    expect(judgeRow(amount("0", "0 Ft"), k, options).detail).toBe('the amount "0 Ft" is zero');
    expect(judgeRow(amount("-10", "-10"), k, options).detail).toBe('the amount "-10" is negative');
    expect(judgeRow(amount(null, "12,5,0", "not a number"), k, options).detail).toBe(
      'the amount "12,5,0" cannot be paid: not a number',
    );
    expect(judgeRow(amount("1250000.5", "1.250.000,50"), k, options).verdict).toBe("ok");
    const ceased = knowledge([biz("12345676", { statusCode: 0 })], [held("12345676")]);
    expect(judgeRow(amount("0", "0"), ceased, options)).toMatchObject({
      verdict: "business_ceased",
      detail: 'the registry shows the business as ceased; the amount "0" is zero',
    });
  });
});

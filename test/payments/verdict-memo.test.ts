/**
 * The verdicts a payee's repeated rows reuse (src/payments/verdict-memo.ts) are exactly those the
 * rows get judged one by one; what is particular to a row (its amount, its name, another holder of
 * its account in the chunk) still changes its verdict, and nothing is reused with --online.
 */
import { describe, expect, it } from "vitest";
import type { PaymentRow } from "../../src/formats/batch-row.ts";
import { prepareRows } from "../../src/payments/knowledge-index.ts";
import { VerdictMemo } from "../../src/payments/verdict-memo.ts";
import {
  type CheckedRow,
  judgeBatch,
  type Knowledge,
  type KnownAccount,
  type KnownBusiness,
} from "../../src/payments/verdicts.ts";
import { account } from "./fixtures.ts";

const TODAY = "2024-06-30";
const OPTIONS = { today: TODAY, holdDays: 30 };
const PAYEE = "12345676";
const ACCOUNT = "11773016-11111018-00000000";
const OTHER = account(5);

let line = 1;
function row(over: Partial<PaymentRow> = {}): PaymentRow {
  line++;
  return {
    line,
    taxId: `${PAYEE}-2-41`,
    bankAccount: ACCOUNT,
    amount: String(1000 + line),
    amountRaw: `${1000 + line} Ft`,
    amountProblem: null,
    currency: "HUF",
    reference: `${line}/2024`,
    name: "PÉLDA KERESKEDELMI KFT.",
    ...over,
  };
}

const business: KnownBusiness = {
  taxId: PAYEE,
  name: "Példa Kereskedelmi Kft.",
  statusCode: 1,
  type: "companies",
  names: ["Példa Kereskedelmi Kft."],
};
const own: KnownAccount = {
  taxId: PAYEE,
  account: ACCOUNT,
  currentlyRegistered: true,
  addedOn: "2024-06-20",
};

function knowledge(accounts: KnownAccount[] = [own], watched: string[] = []): Knowledge {
  return {
    businesses: new Map([[PAYEE, business]]),
    watched: new Set(watched),
    accounts,
    changes: [],
    onlineNotes: new Map(),
    online: false,
  };
}

/** The verdicts judged chunk by chunk through one memo, and without any. */
function both(chunks: PaymentRow[][], k: (chunk: number) => Knowledge) {
  const memo = new VerdictMemo();
  const withMemo: CheckedRow[] = [];
  const without: CheckedRow[] = [];
  chunks.forEach((rows, i) => {
    withMemo.push(...memo.judgeBatch(prepareRows(rows), k(i), OPTIONS));
    without.push(...judgeBatch(prepareRows(rows), k(i), OPTIONS));
  });
  return { withMemo, without, memo };
}

describe("verdicts kept per payee (VerdictMemo)", () => {
  it("gives rows sharing a payee the verdicts they get without it, each with its own fields", () => {
    const rows = [row(), row({ name: "Példa Kereskedelmi" }), row(), row({ bankAccount: OTHER }), row()];
    const later = [row(), row({ name: "Példa Kereskedelmi" }), row({ bankAccount: OTHER })];
    const { withMemo, without, memo } = both([rows, later], () => knowledge());
    expect(withMemo).toEqual(without);
    const [recent, unlisted] = ["account_recently_changed", "account_not_registered"];
    const verdicts = [recent, recent, recent, unlisted, recent, recent, recent, unlisted];
    expect(withMemo.map((r) => r.verdict)).toEqual(verdicts);
    // Line, amount and reference are each row's own even where the verdict was reused.
    expect(withMemo[2]).toMatchObject({
      line: rows[2]!.line,
      amount: rows[2]!.amount,
      reference: rows[2]!.reference,
    });
    // One verdict per payee, account and name: the repeats were not judged again.
    expect(memo.size).toBe(3);
  });

  it("still lets a row's own amount and name change its verdict", () => {
    const rows = [
      row(),
      row({ amount: "0", amountRaw: "0" }),
      row({ amount: null, amountRaw: "abc", amountProblem: 'amount "abc" is not a number' }),
      row({ name: "Egészen Más Bt." }),
      row(),
    ];
    const { withMemo, without } = both([rows], () => knowledge());
    expect(withMemo).toEqual(without);
    const [recent, amount] = ["account_recently_changed", "invalid_amount"];
    expect(withMemo.map((r) => r.verdict)).toEqual([recent, amount, amount, "name_mismatch", recent]);
    expect(withMemo[1]!.detail).toContain('"0"');
    expect(withMemo[3]!.detail).toContain("Egészen Más Bt.");
  });

  it("judges afresh when a chunk knows other holders of the account", () => {
    const elsewhere: KnownAccount = {
      taxId: "87654321",
      account: ACCOUNT,
      currentlyRegistered: true,
      addedOn: null,
    };
    const unregistered = { ...own, account: OTHER };
    const chunks = [[row()], [row()], [row()]];
    const k = (i: number) => knowledge(i === 1 ? [unregistered, elsewhere] : [unregistered]);
    const { withMemo, without } = both(chunks, k);
    expect(withMemo).toEqual(without);
    expect(withMemo[1]!.detail).not.toEqual(withMemo[0]!.detail);
  });

  it("is not used for a check with --online notes", () => {
    const memo = new VerdictMemo();
    const k = { ...knowledge(), online: true };
    memo.judgeBatch(prepareRows([row(), row()]), k, OPTIONS);
    expect(memo.size).toBe(0);
  });
});

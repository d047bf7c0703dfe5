/** Which changes leave accounts unknown, what a held verdict says to do, and what --online asks (pure). */
import { describe, expect, it } from "vitest";
import { type ChangeEvidence, unknownReason, unverifiedChanges } from "../../src/changes/evidence.ts";
import { loadConfig } from "../../src/config.ts";
import { detailSaid } from "../../src/payments/detail-said.ts";
import { nextStep } from "../../src/payments/next-step.ts";
import { onlineNotes, type PayeeRecord, planAsks } from "../../src/payments/recheck.ts";
import { type Knowledge, PASSING, payeeKey, VERDICTS } from "../../src/payments/verdicts.ts";
import { account } from "./fixtures.ts";

const TODAY = "2024-06-30";
const ACCOUNT = "11773016-11111018-00000000";
const OTHER = account(5);

const evidence = (over: Partial<ChangeEvidence> = {}): ChangeEvidence => ({
  taxId: "12345676",
  changeDate: "2024-06-28",
  fileStatus: "fetched",
  parseStatus: "parsed",
  fileError: null,
  parseError: null,
  hasValue: true,
  valueReadable: true,
  ambiguous: false,
  superseded: false,
  ...over,
});

describe("unknownReason", () => {
  it("knows values only when the file is parsed and gives a readable, ordered value for the change", () => {
    expect(unknownReason(evidence())).toBeNull();
    // A parsed value stays known while its file waits to be fetched again for a newer change.
    expect(unknownReason(evidence({ fileStatus: "failed" }))).toBeNull();
    const cases: Array<[Partial<ChangeEvidence>, string]> = [
      [{ fileStatus: null }, "no_file"],
      [{ fileStatus: "pending", parseStatus: null, hasValue: false }, "pending"],
      [{ fileStatus: "skipped", parseStatus: null, hasValue: false }, "skipped"],
      [{ fileStatus: "refused", parseStatus: null, hasValue: false }, "refused"],
      [{ fileStatus: "failed", parseStatus: null, hasValue: false }, "failed"],
      [{ parseStatus: null, hasValue: false }, "not_parsed"],
      [{ parseStatus: "unrecognised", hasValue: false }, "unrecognised"],
      [{ parseStatus: "failed", hasValue: false }, "parse_failed"],
      [{ parseStatus: "unattributed", hasValue: false }, "unattributed"],
      [{ hasValue: false }, "no_value"],
      [{ valueReadable: false }, "no_new_value"],
      [{ ambiguous: true }, "ambiguous"],
      // A parser's status this code has never heard of is not taken for "parsed".
      [{ parseStatus: "mystery", hasValue: false }, "not_parsed"],
    ];
    for (const [over, reason] of cases) expect([over, unknownReason(evidence(over))]).toEqual([over, reason]);
  });

  it("holds within the hold period (future dates included) and later only until something supersedes", () => {
    const skipped = { fileStatus: "skipped", parseStatus: null, hasValue: false };
    const at = (changeDate: string, superseded: boolean) =>
      unverifiedChanges([evidence({ ...skipped, changeDate, superseded })], "12345676", TODAY, 30);
    expect(at("2024-05-31", true)).toHaveLength(1);
    expect(at("2999-01-01", true)).toHaveLength(1);
    expect(at("2024-05-30", true)).toEqual([]);
    expect(at("2024-05-30", false)).toMatchObject([{ withinHold: false, reason: "skipped" }]);
    expect(unverifiedChanges([evidence(skipped)], "10000001", TODAY, 30)).toEqual([]);
  });
});

describe("nextStep", () => {
  it("gives every verdict that holds, and the not_watched warning, a next step; ok none", () => {
    const context = {
      taxBase: "12345676",
      account: ACCOUNT,
      holdDays: 30,
      addedOn: "2024-06-20",
      unverified: [],
      online: false,
    };
    for (const verdict of VERDICTS) {
      const step = nextStep(verdict, context);
      if (verdict === "ok") expect(step).toBeNull();
      else expect(step, verdict).toEqual(expect.stringMatching(/\w{3,}/));
      if (!PASSING.has(verdict)) expect(step, verdict).toMatch(/^[A-Z]/);
    }
    expect(nextStep("account_recently_changed", context)).toContain("passes it from 2024-07-21");
    expect(nextStep("not_watched", context)).toContain("--tax-id 12345676");
  });
});

describe("planAsks", () => {
  const knowledge = (over: Partial<Knowledge> = {}): Knowledge => ({
    businesses: new Map(),
    watched: new Set(),
    accounts: [{ taxId: "12345676", account: ACCOUNT, currentlyRegistered: true, addedOn: null }],
    changes: [],
    onlineNotes: new Map(),
    ...over,
  });
  const row = (taxId: string, bankAccount = ACCOUNT, line = 2) => ({
    line,
    taxId,
    bankAccount,
    amount: null,
    amountRaw: null,
    amountProblem: null,
    currency: null,
    reference: null,
    name: null,
  });
  const records = (readOn: string | null, registrationNumber: string | null = "01-09-123456") =>
    new Map<string, PayeeRecord>([["12345676", { taxId: "12345676", readOn, registrationNumber }]]);

  it("asks the bank-account search who holds the account of a row without a tax number, companies only", () => {
    const unknownAccount = "11773016-22222222-00000000";
    const noTaxId = { ...row("x", unknownAccount), taxId: null };
    expect(planAsks([noTaxId], knowledge(), new Map(), TODAY, 30)).toEqual([
      {
        kind: "bank-account",
        value: "11773016-22222222",
        keys: [payeeKey("", unknownAccount)],
        stale: null,
        staleSaid: null,
        taxId: null,
        forHolder: true,
      },
    ]);
    // Found locally: the holder's own record decides, and it is fresh.
    expect(planAsks([{ ...row("x"), taxId: null }], knowledge(), records("2024-06-29"), TODAY, 30)).toEqual(
      [],
    );
    // A sole proprietor's account is not in the search's reach: no request is spent on it.
    const sole = knowledge({
      businesses: new Map([
        ["12345676", { taxId: "12345676", name: "Kovács János", statusCode: 1, type: "self_employed" }],
      ]),
    });
    expect(planAsks([row("12345676", unknownAccount)], sole, records("2024-06-29", null), TODAY, 30)).toEqual(
      [],
    );
    expect(
      planAsks([row("12345676", unknownAccount)], knowledge(), records("2024-06-29"), TODAY, 30),
    ).toHaveLength(1);
  });

  it("asks nothing for a fresh record of a known account", () => {
    expect(planAsks([row("12345676")], knowledge(), records("2024-06-29"), TODAY, 30)).toEqual([]);
  });

  it("re-reads a stale payee once, by registration number, for all of its rows", () => {
    const asks = planAsks(
      [row("12345676"), row("12345676", OTHER, 3)],
      knowledge(),
      records("2024-05-01"),
      TODAY,
      30,
    );
    expect(asks).toEqual([
      {
        kind: "reg-number",
        value: "01-09-123456",
        keys: [payeeKey("12345676", ACCOUNT), payeeKey("12345676", OTHER)],
        stale: "its newest record was read on 2024-05-01, more than 30 day(s) ago",
        staleSaid: expect.objectContaining({
          code: "pay.stale.old",
          values: { day: "2024-05-01", days: 30 },
        }),
        taxId: "12345676",
      },
    ]);
  });

  it("falls back to the account without a well-formed registration number", () => {
    const asks = planAsks([row("12345676")], knowledge(), records("2024-05-01", "01-09-12\n"), TODAY, 30);
    expect(asks.map((a) => [a.kind, a.value])).toEqual([["bank-account", "11773016-11111018"]]);
  });

  it("re-reads a payee whose unverified change is newer than its record", () => {
    const changes = [evidence({ fileStatus: "skipped", parseStatus: null, hasValue: false })];
    const asks = planAsks([row("12345676")], knowledge({ changes }), records("2024-06-29"), TODAY, 30);
    expect(asks[0]?.stale).toBe("its bank_accounts change of 2024-06-28 is newer than its newest record");
  });

  it("notes the rows a request could not answer, or whose answer missed the payee", () => {
    const asks = planAsks([row("12345676")], knowledge(), records("2024-05-01"), TODAY, 30);
    const key = payeeKey("12345676", ACCOUNT);
    expect(onlineNotes(asks, [{ ok: true, taxIds: ["12345676"] }])).toEqual(new Map());
    expect(onlineNotes(asks, [{ ok: false, why: detailSaid.quotaSpent() }]).get(key)?.text).toBe(
      "not checked online: the monthly search quota is used up (its newest record was read on 2024-05-01, more than 30 day(s) ago)",
    );
    expect(onlineNotes(asks, [{ ok: true, taxIds: ["10000001"] }]).get(key)?.text).toContain(
      "asked online by registration number 01-09-123456, but the answer holds no record of this tax id",
    );
  });
});

describe("REGWATCH_PAYMENT_RECHECK_DAYS", () => {
  it("defaults to 30 and takes a whole number up to 3650, naming the variable otherwise", () => {
    expect(loadConfig({}).paymentRecheckDays).toBe(30);
    expect(loadConfig({ REGWATCH_PAYMENT_RECHECK_DAYS: "0" }).paymentRecheckDays).toBe(0);
    expect(() => loadConfig({ REGWATCH_PAYMENT_RECHECK_DAYS: "a week" })).toThrow(
      /REGWATCH_PAYMENT_RECHECK_DAYS: must be a whole number/,
    );
    expect(() => loadConfig({ REGWATCH_PAYMENT_RECHECK_DAYS: "4000" })).toThrow(
      /REGWATCH_PAYMENT_RECHECK_DAYS: must be at most 3650/,
    );
  });
});

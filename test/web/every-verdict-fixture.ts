/**
 * A recorded payment batch with one row of every verdict (src/payments/verdict-terms.ts VERDICTS),
 * on businesses of the synced world: the widest batch page there is (every count card, every badge,
 * long names and references). Each row's detail and next step are stored as the check stores them
 * (English beside the codes), so the page says them in its reader's language.
 */
import type { Sql } from "../../src/db/connect.ts";
import { detailSaid } from "../../src/payments/detail-said.ts";
import { nextStepSaid } from "../../src/payments/next-step.ts";
import { checkRecord } from "../../src/payments/pipeline.ts";
import { recordPaymentBatch } from "../../src/payments/sql/payment-checks.ts";
import { type CheckedRow, PASSING, VERDICTS, type Verdict } from "../../src/payments/verdicts.ts";
import type { Said } from "../../src/said.ts";
import { taxIdProblemSaid } from "../../src/taxid.ts";

const HOLD_DAYS = 30;
const DAY = "2024-03-09";

interface Payee {
  taxId: string;
  account: string;
  name: string;
}

/** What each verdict's row says, as the check words it. */
function details(verdict: Verdict, p: Payee): Said[] {
  switch (verdict) {
    case "invalid_tax_id":
      return [taxIdProblemSaid(`${p.taxId.slice(0, 7)}${(Number(p.taxId[7]) + 1) % 10}`)!];
    case "invalid_account":
      return [
        {
          code: "account.accountPart",
          values: { raw: p.account },
          text: `bank account "${p.account}" has a wrong check digit in its account part`,
        },
      ];
    case "unknown_account_holder":
      return [detailSaid.holderUnknown()];
    case "business_ceased":
      return [detailSaid.ceased()];
    case "status_unverified":
      return [detailSaid.statusUnread(DAY, "failed", "", "the change file could not be read", 1)];
    case "business_suspended":
      return [detailSaid.suspended()];
    case "account_removed":
      return [detailSaid.removed(DAY, ["11773016-11111018-00000000", "10400000-00000000-00000000"])];
    case "account_not_registered":
      return [
        detailSaid.registeredTo([
          "12345676 Minta Kereskedelmi és Szolgáltató Korlátolt Felelősségű Társaság",
        ]),
      ];
    case "name_mismatch":
      return [detailSaid.nameMismatch(`${p.name} Zrt.`, p.taxId, [p.name])];
    case "name_unverified":
      return [
        detailSaid.nameUnread(
          `${p.name} Bt.`,
          p.taxId,
          [p.name],
          DAY,
          "failed",
          "",
          "the change file could not be read",
        ),
      ];
    case "invalid_amount":
      return [detailSaid.amountUnreadable("1.250.000,50,00")];
    case "account_recently_changed":
      return [detailSaid.added(DAY, "search", HOLD_DAYS)];
    case "account_change_unverified":
      return [
        detailSaid.unverifiedChange(
          {
            changeDate: DAY,
            reason: "failed",
            why: "the change file could not be read",
            error: "",
            withinHold: true,
          },
          HOLD_DAYS,
        ),
      ];
    case "account_unconfirmed":
      return [detailSaid.unconfirmed()];
    case "unknown_business":
      return [detailSaid.unknownBusiness(p.taxId)];
    case "not_watched":
      return [detailSaid.notWatched()];
    case "ok":
      return [];
  }
}

function checkedRow(verdict: Verdict, p: Payee, line: number): CheckedRow {
  const said = details(verdict, p);
  const step = nextStepSaid(verdict, {
    taxBase: p.taxId,
    account: p.account,
    holdDays: HOLD_DAYS,
    addedOn: DAY,
    unverified: [],
    online: false,
    voice: "console",
  });
  return {
    line,
    taxId: `${p.taxId}-2-41`,
    bankAccount: p.account,
    amount: `${line}250000.50`,
    amountRaw: `${line}.250.000,50`,
    amountProblem: null,
    currency: "HUF",
    reference: `SZ-2024/${line} szállítás és beépítés, Győr, 3. ütem`,
    name: p.name,
    verdict,
    detail: said.map((s) => s.text).join("; "),
    detailSaid: said,
    nextStep: step?.text ?? null,
    nextStepSaid: step,
    taxBase: p.taxId,
    payeeFoundBy: "tax_id",
    account: p.account,
    registryName: p.name,
    verifiedBy: null,
    verifiedOn: null,
  };
}

/** Records the batch as reviewer `by` uploaded it on the console; returns its id. */
export async function recordEveryVerdict(sql: Sql, payees: readonly Payee[], by: string): Promise<string> {
  const rows = VERDICTS.map((verdict, i) => checkedRow(verdict, payees[i % payees.length]!, i + 2));
  const held = rows.filter((r) => !PASSING.has(r.verdict));
  const total = (list: readonly CheckedRow[]) =>
    list.reduce((sum, r) => sum + Number(r.amount), 0).toFixed(2);
  return recordPaymentBatch(
    sql,
    {
      checkedBy: by,
      source: "web",
      fileName: "minden-itelet-2024-03-kifizetesek.csv",
      encoding: "utf-8",
      delimiter: ";",
      checkedOn: DAY,
      holdDays: HOLD_DAYS,
    },
    async ({ id, insert }) => {
      await insert(rows.map(checkRecord));
      return {
        value: id,
        end: {
          rowCount: rows.length,
          heldCount: held.length,
          totals: [
            {
              currency: "HUF",
              amount: total(rows),
              rows: rows.length,
              held: total(held),
              held_rows: held.length,
            },
          ],
        },
      };
    },
  );
}

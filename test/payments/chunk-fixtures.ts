/**
 * What the checkChunk tests share: a payment row as the reader gives it, a company's search record
 * as the registry returns it (kept through saveBusinesses), and a chunk checked as of today.
 */
import type { BusinessRecord } from "../../src/api/search-schemas.ts";
import type { Database } from "../../src/db/connect.ts";
import type { PaymentRow } from "../../src/formats/batch-row.ts";
import { type ChunkOptions, checkChunk } from "../../src/payments/check-chunk.ts";
import type { CheckedRow } from "../../src/payments/verdicts.ts";
import { accountList, today } from "./fixtures.ts";

export function paymentRow(
  taxId: string | null,
  bankAccount: string,
  over: Partial<PaymentRow> = {},
): PaymentRow {
  return {
    line: 2,
    taxId,
    bankAccount,
    amount: "125000",
    amountRaw: "125 000",
    amountProblem: null,
    currency: "HUF",
    reference: null,
    name: null,
    ...over,
  };
}

export function companyRecord(
  taxId: string,
  accounts: string[],
  over: Partial<BusinessRecord> = {},
): BusinessRecord {
  return {
    type: "companies",
    status_code: 1,
    tax_number: `${taxId}-2-41`,
    full_name: `Company ${taxId} Korlátolt Felelősségű Társaság`,
    short_name: `Company ${taxId} Kft.`,
    bank_accounts: accountList(...accounts),
    ...over,
  } as BusinessRecord;
}

/** The rows' verdicts as of today, 30-day hold, offline unless `over` says otherwise. */
export function checkRows(
  db: Database,
  rows: PaymentRow[],
  over: Partial<ChunkOptions> = {},
): Promise<CheckedRow[]> {
  return checkChunk(db, rows, {
    today,
    holdDays: 30,
    recheckDays: 30,
    timeZone: "Europe/Budapest",
    online: null,
    ...over,
  });
}

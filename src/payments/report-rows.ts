/**
 * One checked payment as the machine-readable outputs give it (JSON, CSV, XLSX), with the
 * field names docs/contracts.md promises. Text from the registry or a server is scrubbed of
 * secrets; what the file gave is shown as written.
 */
import { KeptTexts } from "../formats/write/kept-texts.ts";
import { redactSecrets } from "../secrets.ts";
import type { BatchSummary } from "./sink.ts";
import type { CheckedRow } from "./verdicts.ts";

export interface JsonPaymentRow {
  line: number;
  verdict: string;
  detail: string;
  next_step: string | null;
  tax_id: string | null;
  tax_base: string | null;
  payee_found_by: string | null;
  bank_account: string;
  account: string | null;
  registry_name: string | null;
  name: string | null;
  amount: string | null;
  amount_raw: string | null;
  currency: string | null;
  reference: string | null;
  verified_by: string | null;
  verified_on: string | null;
}

export function jsonRow(r: CheckedRow): JsonPaymentRow {
  return {
    line: r.line,
    verdict: r.verdict,
    detail: redactSecrets(r.detail),
    next_step: r.nextStep === null ? null : redactSecrets(r.nextStep),
    tax_id: r.taxId,
    tax_base: r.taxBase,
    payee_found_by: r.payeeFoundBy,
    bank_account: r.bankAccount,
    account: r.account,
    registry_name: r.registryName,
    name: r.name,
    amount: r.amount,
    amount_raw: r.amountRaw,
    currency: r.currency,
    reference: r.reference,
    verified_by: r.verifiedBy,
    verified_on: r.verifiedOn,
  };
}

/**
 * Characters JSON.stringify writes other than as themselves inside a string: the quote, the
 * backslash, control characters, and (to be safe) any surrogate, since a lone one is escaped.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A JSON string as JSON.stringify writes it; null as null. Most values need no escaping. */
function jsonText(value: string | null): string {
  if (value === null) return "null";
  return ESCAPED.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/**
 * The JSON text of a check's values that repeat from row to row (a payee's tax number, account,
 * names and verdict's words): each made once and kept (KeptTexts), where jsonText made it for
 * every row. One per output: what is redacted is redacted with the secrets of its check.
 */
export class JsonTexts {
  private readonly plain = new KeptTexts(jsonText);
  private readonly redacted = new KeptTexts(redactedJsonText);

  /** jsonText(value). */
  of(value: string | null): string {
    return value === null ? "null" : this.plain.of(value);
  }

  /** jsonText(redactSecrets(value)). */
  ofRedacted(value: string | null): string {
    return value === null ? "null" : this.redacted.of(value);
  }
}

function redactedJsonText(value: string): string {
  return jsonText(redactSecrets(value));
}

/** Made for each call when none is given: the same text, nothing kept. */
const UNKEPT = {
  of: jsonText,
  ofRedacted: (value: string | null) => (value === null ? "null" : redactedJsonText(value)),
};

/**
 * JSON.stringify(jsonRow(r)), byte for byte (the fields in jsonRow's order), written without the
 * object in between and without stringify's walk over it: the --json output's main cost per row.
 * test/payments/report-rows.test.ts holds the two to the same text. `texts` keeps the repeating
 * values' text from row to row (JsonSink gives one per output).
 */
export function jsonRowText(r: CheckedRow, texts: Pick<JsonTexts, "of" | "ofRedacted"> = UNKEPT): string {
  return (
    `{"line":${r.line},"verdict":"${r.verdict}","detail":${texts.ofRedacted(r.detail)},` +
    `"next_step":${texts.ofRedacted(r.nextStep)},` +
    `"tax_id":${texts.of(r.taxId)},"tax_base":${texts.of(r.taxBase)},` +
    `"payee_found_by":${jsonText(r.payeeFoundBy)},"bank_account":${texts.of(r.bankAccount)},` +
    `"account":${texts.of(r.account)},"registry_name":${texts.of(r.registryName)},` +
    `"name":${texts.of(r.name)},"amount":${jsonText(r.amount)},"amount_raw":${jsonText(r.amountRaw)},` +
    `"currency":${texts.of(r.currency)},"reference":${jsonText(r.reference)},` +
    `"verified_by":${jsonText(r.verifiedBy)},"verified_on":${jsonText(r.verifiedOn)}}`
  );
}

/** The layout a file was read with, for the outputs. */
export function jsonLayout(layout: BatchSummary["layout"]) {
  return {
    encoding: layout.encoding,
    encoding_detected: layout.encodingDetected,
    delimiter: layout.delimiter,
    columns: layout.columns,
    ignored: layout.ignored,
  };
}

export function jsonTotals(summary: BatchSummary) {
  return summary.totals.map((t) => ({
    currency: t.currency,
    amount: t.amount,
    rows: t.rows,
    held: t.held,
    held_rows: t.heldRows,
  }));
}

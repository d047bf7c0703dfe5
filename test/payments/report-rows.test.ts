import { describe, expect, it } from "vitest";
import { JsonTexts, jsonRow, jsonRowText } from "../../src/payments/report-rows.ts";
import type { CheckedRow } from "../../src/payments/verdicts.ts";
import { registerSecrets } from "../../src/secrets.ts";

const plain: CheckedRow = {
  line: 12,
  taxId: "12345676-2-41",
  bankAccount: "11773016-11111018",
  amount: "1250000.5",
  amountRaw: "1.250.000,50",
  amountProblem: null,
  currency: "HUF",
  reference: "12/2026 számla",
  name: "Példa Kft.",
  verdict: "not_watched",
  detail: "on no watch list: a change of its account would go unseen",
  detailSaid: [],
  nextStep: "Passes, but add it to a watch list (`regwatch watch add --list NAME --tax-id 12345676`).",
  nextStepSaid: null,
  taxBase: "12345676",
  payeeFoundBy: "tax_id",
  account: "11773016-11111018-00000000",
  registryName: "Példa Kereskedelmi Kft.",
  verifiedBy: null,
  verifiedOn: null,
};

describe("jsonRowText", () => {
  it("is JSON.stringify of jsonRow, byte for byte", () => {
    const rows: CheckedRow[] = [
      plain,
      { ...plain, nextStep: null, verdict: "ok", detail: "", taxId: null, payeeFoundBy: "account" },
      { ...plain, verifiedBy: "anna", verifiedOn: "2026-11-02", amount: null, currency: null },
      { ...plain, name: 'Idéző "jel" \\ és\ttab\nsor\u0000\u001f\u007f', reference: '=HYPERLINK("x")' },
      { ...plain, name: "emoji 😀 pair", reference: "lone \ud800 high", registryName: "lone \udc00 low" },
      { ...plain, detail: "line\u2028separator\u2029", account: null, taxBase: null, registryName: null },
    ];
    for (const r of rows) expect(jsonRowText(r)).toBe(JSON.stringify(jsonRow(r)));
  });

  it("is the same text when one output keeps the repeating values' text", () => {
    registerSecrets(["k3y-from-the-registry"]);
    const texts = new JsonTexts();
    // The same text as a name (shown as given) and as a detail (scrubbed of secrets).
    const said = 'the registry said "k3y-from-the-registry is not valid"';
    const rows: CheckedRow[] = [
      plain,
      { ...plain, line: 13, name: said, detail: said, nextStep: null },
      { ...plain, line: 14, name: 'Idéző "jel"\u0000', registryName: said, detail: "", verdict: "ok" },
    ];
    for (let round = 0; round < 3; round++) {
      for (const r of rows) expect(jsonRowText(r, texts)).toBe(JSON.stringify(jsonRow(r)));
    }
    expect(jsonRowText(rows[1]!, texts)).toContain('"name":"the registry said \\"k3y-from-the-registry');
  });
});

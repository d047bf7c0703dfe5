/**
 * The names payment files give their columns, as banks, ERPs and supplier-invoice exports write
 * them, in Hungarian and English (pure data). A field may go by names of several ranks: when a
 * file has columns of two ranks for one field (a payable amount beside a net one), the better
 * rank is read and the other is listed as ignored; two columns of one rank are a problem.
 */
import type { PaymentField } from "../batch-row.ts";

/** The names each field goes by, best rank first; compared through `headerKey`. */
export const FIELD_RANKS: Record<PaymentField, readonly (readonly string[])[]> = {
  tax_id: [
    [
      "adószám",
      "adóazonosító",
      "adóazonosító jel",
      "adóazonosító szám",
      "partner adószáma",
      "kedvezményezett adószáma",
      "szállító adószáma",
      "tax_id",
      "tax_number",
      "tax id",
      "tax number",
      "vat number",
    ],
    ["közösségi adószám", "eu adószám", "eu vat number", "community vat number", "vat id"],
  ],
  bank_account: [
    [
      "számlaszám",
      "bankszámlaszám",
      "bankszámla",
      "kedvezményezett számlaszáma",
      "kedvezményezett bankszámlaszáma",
      "jóváírandó számla",
      "jóváírandó számlaszám",
      "partner bankszámlaszáma",
      "szállító bankszámlaszáma",
      "iban",
      "bank_account",
      "account",
      "account number",
      "bank account",
      "bank account number",
    ],
  ],
  amount: [
    [
      "összeg",
      "átutalandó összeg",
      "utalandó összeg",
      "fizetendő",
      "fizetendő összeg",
      "amount",
      "amount payable",
      "payable amount",
      "amount due",
    ],
    ["bruttó összeg", "bruttó", "gross amount"],
    ["nettó összeg", "nettó", "net amount"],
  ],
  currency: [["pénznem", "deviza", "devizanem", "currency"]],
  reference: [
    ["közlemény", "reference"],
    ["számla sorszáma", "számla száma", "invoice number", "invoice no", "invoice"],
    ["megjegyzés", "note"],
  ],
  name: [
    [
      "kedvezményezett neve",
      "kedvezményezett",
      "partner neve",
      "partner",
      "szállító neve",
      "szállító",
      "név",
      "name",
      "payee",
      "payee name",
      "beneficiary",
      "supplier name",
      "supplier",
      "partner name",
    ],
  ],
};

/**
 * "Számlaszám" is a bank account number and an invoice number alike in Hungarian: the column is
 * the account when its values look like accounts (or it has none), else the invoice number.
 */
export const ACCOUNT_OR_INVOICE = "számlaszám";
/** The invoice number's rank among the reference's names (FIELD_RANKS.reference). */
export const INVOICE_RANK = 1;

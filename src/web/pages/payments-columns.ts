/**
 * Which column of a payment file was read for which field, as the console asks and tells it: the
 * column question for a held upload, and the batch page's account of its columns (read, ignored,
 * a remembered choice's author and day, and the offer to choose the amount, name or tax number
 * columns the reader did not find).
 */
import type { PaymentField } from "../../formats/batch-row.ts";
import type { ColumnMapping } from "../../formats/read/columns.ts";
import type { Translator } from "../../i18n/messages.ts";

/** The fields a clerk may place, in the order the form asks for them. */
export const CHOSEN_FIELDS: readonly PaymentField[] = [
  "bank_account",
  "tax_id",
  "amount",
  "name",
  "currency",
  "reference",
];

/** Fields whose column, when not found, the console offers to choose. */
export const OFFERED_FIELDS: readonly PaymentField[] = ["amount", "name", "tax_id"];

/** The offered fields `columns` gives no column for. */
export function missingOffered(columns: ColumnMapping): PaymentField[] {
  return OFFERED_FIELDS.filter((field) => columns[field] === undefined);
}

/** Each field the form asks about, with its words. */
export function fieldChoices(i18n: Translator): { field: PaymentField; label: string }[] {
  const words: Record<PaymentField, string> = {
    bank_account: i18n.t("columns.field.bank_account"),
    tax_id: i18n.t("columns.field.tax_id"),
    amount: i18n.t("columns.field.amount"),
    name: i18n.t("columns.field.name"),
    currency: i18n.t("columns.field.currency"),
    reference: i18n.t("columns.field.reference"),
  };
  return CHOSEN_FIELDS.map((field) => ({ field, label: words[field] }));
}

/** The column question's page for a held upload; `selected` are the columns already read. */
export function columnsPage(
  i18n: Translator,
  file: string,
  held: string,
  preview: unknown,
  problems: string[],
  selected: ColumnMapping = {},
) {
  return {
    title: i18n.t("columns.title"),
    intro: i18n.t("columns.intro", { file }),
    held,
    preview,
    fields: fieldChoices(i18n),
    selected,
    problems,
  };
}

/** What the batch page says about its columns; null for batches recorded before migration 0050. */
export interface BatchColumnsView {
  read: { field: PaymentField; label: string; header: string }[];
  ignored: string[];
  /** The ignored columns as the reader's language lists them, each quoted. */
  ignoredList: string;
  chosen: { by: string; at: Date } | null;
  /** The held upload its uploader may still choose the missing columns for; null when none. */
  offer: {
    held: string;
    missing: string;
    headers: string[];
    fields: { field: PaymentField; label: string }[];
    selected: ColumnMapping;
  } | null;
}

export function batchColumns(
  i18n: Translator,
  batch: {
    readColumns: ColumnMapping | null;
    ignoredColumns: string[] | null;
    columnsChosenBy: string | null;
    columnsChosenAt: Date | null;
  },
  offer: string | null,
): BatchColumnsView | null {
  if (batch.readColumns === null) return null;
  const columns = batch.readColumns;
  const fields = fieldChoices(i18n);
  const read = fields.flatMap(({ field, label }) => {
    const header = columns[field];
    return header === undefined ? [] : [{ field, label, header }];
  });
  const ignored = batch.ignoredColumns ?? [];
  const missing = missingOffered(columns);
  const labels = new Map(fields.map((f) => [f.field, f.label]));
  const list = new Intl.ListFormat(i18n.locale, { type: "conjunction" });
  return {
    read,
    ignored,
    ignoredList: list.format(ignored.map((header) => i18n.t("batch.columns.quoted", { header }))),
    chosen:
      batch.columnsChosenBy && batch.columnsChosenAt
        ? { by: batch.columnsChosenBy, at: batch.columnsChosenAt }
        : null,
    offer:
      offer && missing.length > 0
        ? {
            held: offer,
            missing: list.format(missing.map((f) => labels.get(f) ?? f)),
            headers: [...read.map((r) => r.header), ...ignored],
            fields,
            selected: columns,
          }
        : null,
  };
}

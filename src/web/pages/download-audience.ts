/**
 * Who a download is for, pure. A person's (the default) speaks the session's language: column
 * names, verdicts, headings and details in words, days as date cells in the language's own form.
 * A machine's (`?format=machine`) keeps the column keys, codes and ISO days these downloads have
 * always had, whatever the session's language, so a script that reads it never breaks.
 */
import type { XlsxColumnType, XlsxSheet, XlsxWriter } from "../../formats/write/xlsx-writer.ts";
import type { Locale } from "../../i18n/locales.ts";
import type { MessageKey, Translator } from "../../i18n/messages.ts";
import { line } from "../route-schemas.ts";

export type Audience = "person" | "machine";

/** The query field a download route accepts beside its own. */
export const AUDIENCE_FIELD = { format: line(20) };

/** The audience `query.format` asks for, or the sentence saying what is wrong with it. */
export function audienceOf(
  query: Record<string, unknown>,
  i18n: Translator,
): { audience: Audience; problem?: undefined } | { audience?: undefined; problem: string } {
  const format = query.format;
  if (format === undefined || format === "") return { audience: "person" };
  if (format === "machine") return { audience: "machine" };
  return { problem: i18n.t("download.badFormat", { given: String(format) }) };
}

/** How a workbook shows a day, as the language writes days ("2026. 12. 05.", "2026-12-05"). */
const DAY_FORMAT: Record<Locale, string> = { hu: 'yyyy". "mm". "dd"."', en: "yyyy-mm-dd" };

export function workbookDayFormat(locale: Locale): string {
  return DAY_FORMAT[locale];
}

/** A download's words: the machine's keep the keys; a person's are the reader's. */
export interface DownloadWords {
  audience: Audience;
  i18n: Translator;
}

/** A yes or no cell: `yes`/`no` for a machine, the word for a person. */
export function yesNo(words: DownloadWords, value: boolean): string {
  if (words.audience === "machine") return value ? "yes" : "no";
  return words.i18n.t(value ? "download.yes" : "download.no");
}

/** A download's column: its key (a machine's header, and its name's catalog key), cell type and width. */
export interface DownloadColumn {
  key: string;
  type: XlsxColumnType;
  width: number;
}

type Area = "payments" | "changes";

/** The header row: the keys for a machine, the names in the reader's language for a person. */
export function columnNames(area: Area, columns: readonly DownloadColumn[], words: DownloadWords): string[] {
  return columns.map((c) =>
    words.audience === "machine" ? c.key : words.i18n.t(`export.${area}.${c.key}` as MessageKey),
  );
}

/** The download's sheet in `book`: named and headed for its audience, days as date cells. */
export function downloadSheet(
  book: XlsxWriter,
  area: Area,
  columns: readonly DownloadColumn[],
  words: DownloadWords,
): XlsxSheet {
  const machine = words.audience === "machine";
  const names = columnNames(area, columns, words);
  const day = machine ? "yyyy-mm-dd" : workbookDayFormat(words.i18n.locale);
  return book.sheet(
    machine ? area : words.i18n.t(`export.${area}.sheet`),
    columns.map((c, i) => ({
      header: names[i]!,
      type: c.type,
      width: machine ? c.width : Math.max(c.width, names[i]!.length + 2),
      ...(c.type === "date" ? { numFmt: day } : {}),
    })),
  );
}

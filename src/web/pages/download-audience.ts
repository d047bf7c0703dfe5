/**
 * Who a download is for, pure. A person's (the default) speaks the session's language: column
 * names, verdicts, headings and details in words, days as date cells in the language's own form.
 * A machine's (`?format=machine`) keeps the column keys, codes and ISO days these downloads have
 * always had, whatever the session's language, so a script that reads it never breaks.
 */
import type { Locale } from "../../i18n/locales.ts";
import type { Translator } from "../../i18n/messages.ts";
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

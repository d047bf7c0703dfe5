/** An alert's decision history as PDF bytes, for `alerts report` and the alert page alike. */
import type { Sql } from "../db/connect.ts";
import { renderPdf } from "../formats/write/pdf-document.ts";
import { formatsFor } from "../i18n/format.ts";
import type { Locale } from "../i18n/locales.ts";
import { translatorFor } from "../i18n/messages.ts";
import { alertHistoryReport } from "./history-report.ts";
import { alertDetail } from "./sql/history.ts";

/** The PDF of alert `id`'s history; undefined when there is no such alert. */
export async function alertHistoryPdf(
  sql: Sql,
  id: number,
  request: { locale: Locale; timeZone: string; madeAt: Date; version: string },
): Promise<Buffer | undefined> {
  const detail = await alertDetail(sql, id);
  if (!detail) return undefined;
  const report = alertHistoryReport(
    detail,
    translatorFor(request.locale),
    formatsFor(request.locale, request.timeZone),
    request,
  );
  return renderPdf(report);
}

/** A recorded batch's evidence report as PDF bytes, read and written for the CLI and the console alike. */
import type { Sql } from "../db/connect.ts";
import { renderPdf } from "../formats/write/pdf-document.ts";
import { formatsFor } from "../i18n/format.ts";
import type { Locale } from "../i18n/locales.ts";
import { translatorFor } from "../i18n/messages.ts";
import { batchEvidenceReport } from "./evidence-report.ts";
import { readBatchReportData } from "./sql/evidence-report.ts";

export interface ReportRequest {
  locale: Locale;
  /** REGWATCH_TZ: the zone of every time the report shows. */
  timeZone: string;
  madeAt: Date;
  version: string;
}

/** The PDF of batch `id`; undefined when there is no such batch. */
export async function batchEvidencePdf(
  sql: Sql,
  id: string,
  request: ReportRequest,
): Promise<Buffer | undefined> {
  const data = await readBatchReportData(sql, id);
  if (!data) return undefined;
  const i18n = translatorFor(request.locale);
  const report = batchEvidenceReport(data, i18n, formatsFor(request.locale, request.timeZone), request);
  return renderPdf(report);
}

/**
 * The evidence reports as console downloads: a batch's (`/payments/{id}.pdf`) and an alert's
 * decision history (`/alerts/{id}/history.pdf`), in the reader's language, every time in
 * REGWATCH_TZ. Anyone who may read the page may download its report. Made whole, then sent.
 */
import type { FastifyReply } from "fastify";
import type { Locale } from "../../i18n/locales.ts";
import { packageVersion } from "../../version.ts";
import type { WebDeps } from "../kit.ts";

export function reportRequest(deps: WebDeps, locale: Locale) {
  return { locale, timeZone: deps.config.tz, madeAt: deps.now(), version: packageVersion() };
}

export function sendPdf(reply: FastifyReply, fileName: string, pdf: Buffer): FastifyReply {
  return reply
    .type("application/pdf")
    .header("content-disposition", `attachment; filename="${fileName}"`)
    .header("cache-control", "no-store")
    .send(pdf);
}

/**
 * The payment pages: GET /payments (the upload form for reviewers and admins, recent batches for
 * everyone), POST /payments (payments-upload.ts), GET /payments/{batch_id} (each row's verdict
 * with its detail and next step, totals, who ran it and when; ?held=1 shows held rows only),
 * GET /payments/{batch_id}.csv and .xlsx (in the reader's language; `?format=machine` with the
 * column keys and codes), and POST /payments/verify (a reviewer records that an
 * account was confirmed out of band, from a held row).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { batchEvidencePdf } from "../../payments/evidence-pdf.ts";
import { isHeldFor } from "../../payments/sql/payment-uploads.ts";
import { verifyPayee } from "../../payments/verification.ts";
import { CHECK_RETRY_AFTER_S, CHECKS_AT_ONCE, CheckSlots, inCheckSlot } from "../check-slots.ts";
import { downloadBody } from "../download.ts";
import { type PageKit, type RegisterAccountPages, roleAtLeast, type WebDeps } from "../kit.ts";
import { form, line, PAGE, PLAIN_GET, query, typedText } from "../route-schemas.ts";
import { batchChecksQuery, readBatch, readBatchVerdictCounts, readRecentBatches } from "../sql/payments.ts";
import { AUDIENCE_FIELD, audienceOf, type DownloadWords } from "./download-audience.ts";
import { reportRequest, sendPdf } from "./evidence-download.ts";
import { COLUMNS, columnsHandler } from "./payments-check.ts";
import { batchColumns } from "./payments-columns.ts";
import { writeBatchCsv, writeBatchXlsx } from "./payments-export.ts";
import { RECHECK, recheckHandler } from "./payments-recheck.ts";
import { type ShowForm, uploadHandler } from "./payments-upload.ts";
import { batchSummary, paymentCheckLines, verdictWords } from "./payments-view.ts";
import { pageLinks, QueryReader, splitPage } from "./query-reader.ts";

const VERIFY = {
  querystring: query(),
  body: form({ account: line(200), tax_id: line(200), note: typedText(20_000), batch: line(200) }),
};
const BATCH = {
  params: { type: "object", properties: { file: line(200) }, required: ["file"] },
  querystring: query({ held: line(4), page: PAGE, verified: line(200), ...AUDIENCE_FIELD }),
};

const BATCHES_PAGE = 25;
const ROWS_PAGE = 200;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** Verdicts a payee verification can release (an account change not confirmed yet). */
const VERIFIABLE = new Set(["account_recently_changed", "account_change_unverified"]);

export const registerPaymentPages: RegisterAccountPages = (app, kit) => {
  // One console's checks at once, whichever route starts them (an upload, a column choice, a recheck).
  const slots = new CheckSlots(CHECKS_AT_ONCE);
  const busy = (request: FastifyRequest, reply: FastifyReply) => {
    const i18n = kit.i18n(request);
    const words = { limit: CHECKS_AT_ONCE, seconds: CHECK_RETRY_AFTER_S };
    const page = { title: i18n.t("payments.busy.title"), message: i18n.t("payments.busy.message", words) };
    return kit.render(request, reply, "error", page, 503);
  };
  const showForm: ShowForm = async (request, reply, status, extra) => {
    const query = request.query as Record<string, unknown>;
    const i18n = kit.i18n(request);
    const q = new QueryReader(query, i18n);
    const page = q.integer("page", 1, 1, 100_000);
    const deps = request.deps;
    const fetched = await readRecentBatches(deps.db.sql, {
      limit: BATCHES_PAGE,
      offset: (page - 1) * BATCHES_PAGE,
    });
    const { rows, hasMore } = splitPage(fetched, BATCHES_PAGE);
    return kit.render(
      request,
      reply,
      "payments",
      {
        title: i18n.t("payments.title"),
        canUpload: roleAtLeast(request.user.role, "reviewer"),
        form: extra.form ?? { holdDays: String(deps.config.paymentHoldDays), encoding: "", currency: "HUF" },
        problems: [...q.problems, ...(extra.problems ?? [])],
        batches: rows.map(batchSummary),
        links: pageLinks("/payments", query, page, hasMore),
      },
      status,
    );
  };

  app.get("/payments", { schema: { querystring: query({ page: PAGE }) } }, (request, reply) =>
    showForm(request, reply, 200, {}),
  );
  app.post(
    "/payments",
    { schema: PLAIN_GET, config: { multipartCsrf: true }, preHandler: kit.requireRole("reviewer") },
    inCheckSlot(slots, busy, uploadHandler(kit, showForm)),
  );
  app.post<{ Body: Record<string, unknown> }>(
    "/payments/columns",
    { schema: COLUMNS, preHandler: kit.requireRole("reviewer") },
    inCheckSlot(slots, busy, columnsHandler(kit, showForm)),
  );
  app.post<{ Params: { id: string }; Body: { online?: string } }>(
    "/payments/:id/recheck",
    { schema: RECHECK, preHandler: kit.requireRole("reviewer") },
    inCheckSlot(slots, busy, recheckHandler(kit)),
  );
  app.post<{ Body: Record<string, unknown> }>(
    "/payments/verify",
    { schema: VERIFY, preHandler: kit.requireRole("reviewer") },
    (request, reply) => verify(request, reply, request.deps, kit),
  );
  app.get<{ Params: { file: string } }>("/payments/:file", { schema: BATCH }, async (request, reply) => {
    const deps = request.deps;
    const match = /^(.+?)(?:\.(csv|xlsx|pdf))?$/.exec(request.params.file)!;
    const id = match[1]!.toLowerCase();
    const batch = UUID.test(id) ? await readBatch(deps.db.sql, id) : undefined;
    const i18n = kit.i18n(request);
    if (!batch) {
      const message = i18n.t("payments.noBatch", { id: match[1] });
      return kit.render(request, reply, "error", { title: i18n.t("payments.noBatch.title"), message }, 404);
    }
    const query = request.query as Record<string, unknown>;
    if (match[2] === "pdf") {
      const pdf = await batchEvidencePdf(deps.db.sql, batch.id, reportRequest(deps, i18n.locale));
      return sendPdf(reply, `regwatch-evidence-${batch.id}.pdf`, pdf!);
    }
    if (match[2] === "csv" || match[2] === "xlsx") {
      const wanted = audienceOf(query, i18n);
      if (wanted.problem !== undefined)
        return kit.render(
          request,
          reply,
          "error",
          { title: i18n.t("download.refused"), message: wanted.problem },
          400,
        );
      return download(reply, deps, batch.id, match[2], { audience: wanted.audience, i18n });
    }
    const q = new QueryReader(query, i18n);
    const heldOnly = q.choice("held", ["1", "0"]) === "1";
    const page = q.integer("page", 1, 1, 100_000);
    const [counts, fetched] = await Promise.all([
      readBatchVerdictCounts(deps.db.sql, batch.id),
      batchChecksQuery(deps.db.sql, batch.id, {
        heldOnly,
        page: { limit: ROWS_PAGE, offset: (page - 1) * ROWS_PAGE },
      }),
    ]);
    const { rows, hasMore } = splitPage(fetched, ROWS_PAGE);
    // The offer to choose columns is the uploader's, while their upload is still held.
    const offer =
      batch.columnsOffer && (await isHeldFor(deps.db.sql, batch.columnsOffer, request.user.name))
        ? batch.columnsOffer
        : null;
    return kit.render(
      request,
      reply,
      "payment-batch",
      {
        title: i18n.t("batch.title", { name: batch.fileName ?? batch.id }),
        batch: batchSummary(batch),
        columns: batchColumns(i18n, batch as Parameters<typeof batchColumns>[1], offer),
        counts: counts.map((c) => ({ ...c, ...verdictWords(c.verdict, i18n) })),
        heldOnly,
        problems: q.problems,
        firstRow: rows.length > 0,
        rows: paymentCheckLines(rows, i18n).map((r) => ({
          ...r,
          verifiable: r.held && VERIFIABLE.has(r.verdict) && r.taxBase !== null,
        })),
        canVerify: roleAtLeast(request.user.role, "reviewer"),
        verified: q.text("verified"),
        links: pageLinks(`/payments/${batch.id}`, query, page, hasMore),
      },
      q.problems.length > 0 ? 400 : 200,
    );
  });
};

function download(
  reply: FastifyReply,
  deps: WebDeps,
  batchId: string,
  kind: "csv" | "xlsx",
  words: DownloadWords,
) {
  const write = kind === "csv" ? writeBatchCsv : writeBatchXlsx;
  const out = downloadBody(
    deps.log,
    "payment batch download",
    (to) => write(deps.db.sql, batchId, to, words),
    kind === "xlsx",
  );
  return reply
    .type(kind === "csv" ? "text/csv; charset=utf-8" : XLSX_TYPE)
    .header("content-disposition", `attachment; filename="regwatch-payments-${batchId}.${kind}"`)
    .send(out);
}

/** Records the verification as the signed-in user; any `by` field in the form is ignored. */
async function verify(
  request: FastifyRequest<{ Body: Record<string, unknown> }>,
  reply: FastifyReply,
  deps: WebDeps,
  kit: PageKit,
) {
  const body = request.body ?? {};
  const text = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : "");
  const result = await verifyPayee(
    deps.db,
    {
      account: text("account"),
      taxId: text("tax_id"),
      by: request.user.name,
      note: text("note") || null,
      at: deps.now(),
    },
    deps.config.registryTz,
  );
  if (!result.ok) {
    return kit.render(
      request,
      reply,
      "error",
      {
        title: kit.i18n(request).t("payments.notVerified.title"),
        message: result.problems.map((p) => p.replace(/^--(tax-id|by|note)/, "$1")).join("; "),
      },
      400,
    );
  }
  const batch = text("batch").toLowerCase();
  const back = UUID.test(batch) ? `/payments/${batch}` : "/payments";
  return reply.redirect(`${back}?verified=${encodeURIComponent(result.verification.account)}`, 303);
}

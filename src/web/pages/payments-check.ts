/**
 * How the console checks an uploaded payment file: an `.xlsx` is read through its first sheet
 * (formats/read/xlsx.ts); a header the reader does not recognise is read with the columns a
 * clerk chose for it before (payment_column_choices), else the upload is held and the clerk is
 * shown its first rows to say which column is which; "online" asks the registry as `payments
 * check --online` does; next steps are in the console's words. POST /payments/columns takes the
 * choice and checks the held file.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyReply, FastifyRequest } from "fastify";
import { requireSearch } from "../../config.ts";
import { localDateTime } from "../../dates.ts";
import type { ColumnMapping } from "../../formats/read/columns.ts";
import { fileDigest } from "../../formats/read/file-digest.ts";
import { previewHeader } from "../../formats/read/header-preview.ts";
import { looksLikeZip, XlsxRefusedError, xlsxToCsv } from "../../formats/read/xlsx.ts";
import type { Translator } from "../../i18n/messages.ts";
import { startOnline } from "../../payments/check-chunk.ts";
import { type BatchCheckResult, checkBatch } from "../../payments/pipeline.ts";
import {
  dropHeldUpload,
  holdUpload,
  type RememberedColumns,
  readColumnChoice,
  saveColumnChoice,
  takeHeldUpload,
} from "../../payments/sql/payment-uploads.ts";
import { openSearch } from "../../run/open-registry.ts";
import { holdConnectionWhile } from "../hold-connection.ts";
import type { PageKit } from "../kit.ts";
import { form, line, query } from "../route-schemas.ts";
import { CHOSEN_FIELDS, columnsPage, missingOffered } from "./payments-columns.ts";
import type { ShowForm, UploadForm } from "./payments-form.ts";

export interface CheckInput {
  path: string;
  name: string;
  form: UploadForm;
  options: { holdDays: number; encoding: string | undefined; currency: string; online: boolean };
  columns?: ColumnMapping;
  /** The column choice `columns` is, when a clerk made it: who and when. */
  chosen?: { by: string; at: Date };
}

export const COLUMNS = {
  querystring: query(),
  body: form({ held: line(40), ...Object.fromEntries(CHOSEN_FIELDS.map((f) => [f, line(500)])) }, ["held"]),
};

export function checkUploadedFile(
  kit: PageKit,
  showForm: ShowForm,
  request: FastifyRequest,
  reply: FastifyReply,
  input: CheckInput,
): Promise<() => Promise<FastifyReply> | FastifyReply> {
  // A long check keeps its connection: the uploader learns the outcome however long it takes.
  return holdConnectionWhile(request, () => checkFile(kit, showForm, request, reply, input));
}

async function checkFile(
  kit: PageKit,
  showForm: ShowForm,
  request: FastifyRequest,
  reply: FastifyReply,
  input: CheckInput,
): Promise<() => Promise<FastifyReply> | FastifyReply> {
  const deps = request.deps;
  const i18n = kit.i18n(request);
  const { name, form, options } = input;
  // The file as uploaded (a workbook before it is read as CSV): what the evidence report names.
  const digest = await fileDigest(input.path);
  let file = input.path;
  if (await looksLikeZip(file)) {
    const csv = path.join(path.dirname(file), "sheet.csv");
    try {
      await xlsxToCsv(file, csv);
    } catch (error) {
      if (!(error instanceof XlsxRefusedError)) throw error;
      const message = xlsxRefusal(i18n, error);
      return () =>
        showForm(request, reply, 400, {
          form,
          problems: [i18n.t("payments.problem.inFile", { name, message })],
        });
    }
    file = csv;
  }
  let columns = input.columns;
  let chosen = input.chosen ?? null;
  let offer: string | null = null;
  const hold = () =>
    holdUpload(deps.db.sql, {
      fileName: name,
      path: input.path,
      options: { ...options, form },
      by: request.user.name,
    });
  if (!columns) {
    const preview = await previewHeader(file, file === input.path ? options.encoding : undefined);
    // A clerk's choice for this header wins over the reader's own names.
    const remembered: RememberedColumns | undefined = await readColumnChoice(deps.db.sql, preview.signature);
    if (remembered) {
      columns = remembered.columns as ColumnMapping;
      chosen = { by: remembered.by, at: remembered.at };
    } else if (!preview.recognised) {
      const held = await hold();
      return () => kit.render(request, reply, "payment-columns", columnsPage(i18n, name, held, preview, []));
    } else if (missingOffered(preview.columns ?? {}).length > 0) {
      // Checked at once; the upload is kept so the batch page can offer the columns not found.
      offer = await hold();
    }
  }
  if (options.online && (!deps.config.searchUrl || !deps.config.searchApiKey)) {
    if (offer) await dropHeldUpload(deps.db.sql, offer, request.user.name);
    return () => showForm(request, reply, 400, { form, problems: [i18n.t("columns.searchNotSet")] });
  }
  const check = {
    read: {
      currency: options.currency,
      ...(options.encoding && file === input.path ? { encoding: options.encoding } : {}),
      ...(columns ? { columns } : {}),
    },
    holdDays: options.holdDays,
    today: localDateTime(deps.now(), deps.config.registryTz).date,
    recheckDays: deps.config.paymentRecheckDays,
    acceptUnconfirmed: deps.config.paymentAcceptUnconfirmed,
    timeZone: deps.config.registryTz,
    online: null,
    voice: "console" as const,
    record: {
      by: request.user.name,
      source: "web" as const,
      fileName: name,
      columnsChosen: chosen,
      columnsOffer: offer,
      file: digest,
    },
  };
  let result: BatchCheckResult;
  if (options.online) {
    requireSearch(deps.config);
    const search = await openSearch(deps.config, deps.log, deps.db.sql);
    try {
      result = await checkBatch(deps.db, file, { ...check, online: startOnline(deps.db, search.client) }, []);
    } finally {
      await search.close().catch(() => {});
    }
  } else result = await checkBatch(deps.db, file, check, []);
  if (!result.ok) {
    if (offer) await dropHeldUpload(deps.db.sql, offer, request.user.name);
    const named = result.problems.map((p) =>
      p.line > 0
        ? i18n.t("payments.problem.atLine", { name, line: p.line, message: p.message })
        : i18n.t("payments.problem.inFile", { name, message: p.message }),
    );
    return () => showForm(request, reply, 400, { form, problems: named });
  }
  const location = `/payments/${result.summary.batchId}`;
  return () => reply.redirect(location, 303);
}

/** The clerk's choice read from the form: field -> header, or the problems with it. */
export function readColumnChoiceForm(
  body: Record<string, unknown>,
  headers: readonly string[],
  i18n: Translator,
): { ok: true; columns: ColumnMapping } | { ok: false; problems: string[] } {
  const columns: ColumnMapping = {};
  const problems: string[] = [];
  const used = new Set<string>();
  for (const field of CHOSEN_FIELDS) {
    const header = typeof body[field] === "string" ? (body[field] as string) : "";
    if (header === "") continue;
    if (!headers.includes(header)) problems.push(i18n.t("columns.notAColumn", { header }));
    else if (used.has(header)) problems.push(i18n.t("columns.sameTwice", { header }));
    else {
      used.add(header);
      columns[field] = header;
    }
  }
  if (!columns.bank_account && problems.length === 0) problems.push(i18n.t("columns.needAccount"));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, columns };
}

/** POST /payments/columns: the choice is kept for the header, then the held file is checked with it. */
export function columnsHandler(kit: PageKit, showForm: ShowForm) {
  return async (request: FastifyRequest<{ Body: Record<string, unknown> }>, reply: FastifyReply) => {
    const deps = request.deps;
    const i18n = kit.i18n(request);
    const body = request.body ?? {};
    const heldId = String(body.held ?? "");
    const dir = await mkdtemp(path.join(tmpdir(), "regwatch-upload-"));
    let answer: () => Promise<FastifyReply> | FastifyReply;
    try {
      const saved = path.join(dir, "batch");
      const held = /^[0-9a-f-]{36}$/.test(heldId)
        ? await takeHeldUpload(deps.db.sql, heldId, request.user.name, saved)
        : undefined;
      if (!held) {
        const gone = { title: i18n.t("columns.title"), message: i18n.t("columns.heldGone") };
        return await kit.render(request, reply, "error", gone, 410);
      }
      const options = held.options as unknown as CheckInput["options"] & { form: UploadForm };
      let file = saved;
      if (await looksLikeZip(saved)) {
        file = path.join(dir, "sheet.csv");
        await xlsxToCsv(saved, file);
      }
      const preview = await previewHeader(file, file === saved ? options.encoding : undefined);
      const choice = readColumnChoiceForm(body, preview.headers, i18n);
      if (!choice.ok) {
        const again = await holdUpload(deps.db.sql, { ...held, path: saved, by: request.user.name });
        answer = () =>
          kit.render(
            request,
            reply,
            "payment-columns",
            columnsPage(i18n, held.fileName, again, preview, choice.problems),
            400,
          );
      } else {
        const chosenAt = await saveColumnChoice(deps.db.sql, {
          signature: preview.signature,
          headers: preview.headers,
          columns: choice.columns,
          by: request.user.name,
        });
        answer = await checkUploadedFile(kit, showForm, request, reply, {
          path: saved,
          name: held.fileName,
          form: options.form,
          options,
          columns: choice.columns,
          chosen: { by: request.user.name, at: chosenAt },
        });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return answer();
  };
}

/** Why a workbook was refused, in the reader's language. */
function xlsxRefusal(i18n: Translator, error: XlsxRefusedError): string {
  const v = error.values;
  switch (error.reason) {
    case "notZip":
      return i18n.t("xlsx.notZip");
    case "tooBig":
      return i18n.t("xlsx.tooBig", v);
    case "tooMany":
      return i18n.t("xlsx.tooMany", v);
    case "unsupported":
      return i18n.t("xlsx.unsupported", v);
    case "compression":
      return i18n.t("xlsx.compression", v);
    case "longCell":
      return i18n.t("xlsx.longCell", v);
    case "tooManyStrings":
      return i18n.t("xlsx.tooManyStrings", v);
    case "noSheet":
      return i18n.t("xlsx.noSheet");
    case "malformed":
      return i18n.t("xlsx.malformed", v);
  }
}

/**
 * How the console checks an uploaded payment file: an `.xlsx` is read through its first sheet
 * (payments/read/xlsx.ts); a header the reader does not recognise is read with the columns a
 * clerk chose for it before (payment_column_choices), else the upload is held and the clerk is
 * shown its first rows to say which column is which; "online" asks the registry as `payments
 * check --online` does; next steps are in the console's words. POST /payments/columns takes the
 * choice and checks the held file.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyReply, FastifyRequest } from "fastify";
import { requireSearch } from "../../config.ts";
import { localDateTime } from "../../dates.ts";
import { holdUpload, readColumnChoice, saveColumnChoice, takeHeldUpload } from "../../db/payment-uploads.ts";
import type { PaymentField } from "../../payments/batch-row.ts";
import { startOnline } from "../../payments/check-chunk.ts";
import { type BatchCheckResult, checkBatch } from "../../payments/pipeline.ts";
import type { ColumnMapping } from "../../payments/read/columns.ts";
import { previewHeader } from "../../payments/read/header-preview.ts";
import { looksLikeZip, XlsxRefusedError, xlsxToCsv } from "../../payments/read/xlsx.ts";
import { openSearch } from "../../run/open-registry.ts";
import type { PageKit } from "../kit.ts";
import { form, line, query } from "../route-schemas.ts";
import type { ShowForm, UploadForm } from "./payments-upload.ts";

/** User-visible sentences of this module ({…} are filled in). */
export const PAYMENT_CHECK_TEXT = {
  columnsTitle: "Which column is which?",
  columnsIntro:
    "The header of {file} is not one regwatch knows. Say which column holds each field; the choice is kept for every file with this header.",
  needAccount: "Choose the column that holds the bank account: it is the one field every check needs.",
  sameTwice: 'The column "{header}" was chosen for two fields: choose it once.',
  notAColumn: '"{header}" is not a column of this file.',
  heldGone:
    "The uploaded file is no longer held (it is kept for a day, for the one who uploaded it): upload it again.",
  searchNotSet:
    "online: the registry's search is not set up for this account (REGWATCH_SEARCH_URL and its key)",
} as const;

/** The fields a clerk may place, in the order the form asks for them. */
export const CHOSEN_FIELDS: readonly PaymentField[] = [
  "bank_account",
  "tax_id",
  "amount",
  "name",
  "currency",
  "reference",
];

export interface CheckInput {
  path: string;
  name: string;
  form: UploadForm;
  options: { holdDays: number; encoding: string | undefined; currency: string; online: boolean };
  columns?: ColumnMapping;
}

export const COLUMNS = {
  querystring: query(),
  body: form({ held: line(40), ...Object.fromEntries(CHOSEN_FIELDS.map((f) => [f, line(500)])) }, ["held"]),
};

export async function checkUploadedFile(
  kit: PageKit,
  showForm: ShowForm,
  request: FastifyRequest,
  reply: FastifyReply,
  input: CheckInput,
): Promise<() => Promise<FastifyReply> | FastifyReply> {
  const deps = request.deps;
  const { name, form, options } = input;
  let file = input.path;
  if (await looksLikeZip(file)) {
    const csv = path.join(path.dirname(file), "sheet.csv");
    try {
      await xlsxToCsv(file, csv);
    } catch (error) {
      if (!(error instanceof XlsxRefusedError)) throw error;
      return () => showForm(request, reply, 400, { form, problems: [`${name}: ${error.message}`] });
    }
    file = csv;
  }
  let columns = input.columns;
  if (!columns) {
    const preview = await previewHeader(file, file === input.path ? options.encoding : undefined);
    if (!preview.recognised) {
      const remembered = await readColumnChoice(deps.db.sql, preview.signature);
      if (remembered) columns = remembered as ColumnMapping;
      else {
        const held = await holdUpload(deps.db.sql, {
          fileName: name,
          body: await readFile(input.path),
          options: { ...options, form },
          by: request.user.name,
        });
        return () =>
          kit.render(request, reply, "payment-columns", {
            title: PAYMENT_CHECK_TEXT.columnsTitle,
            intro: PAYMENT_CHECK_TEXT.columnsIntro.replace("{file}", name),
            held,
            preview,
            fields: CHOSEN_FIELDS,
            problems: [],
          });
      }
    }
  }
  if (options.online && (!deps.config.searchUrl || !deps.config.searchApiKey)) {
    return () => showForm(request, reply, 400, { form, problems: [PAYMENT_CHECK_TEXT.searchNotSet] });
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
    record: { by: request.user.name, source: "web" as const, fileName: name },
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
    const named = result.problems.map((p) => `${name}${p.line > 0 ? ` line ${p.line}` : ""}: ${p.message}`);
    return () => showForm(request, reply, 400, { form, problems: named });
  }
  const location = `/payments/${result.summary.batchId}`;
  return () => reply.redirect(location, 303);
}

/** The clerk's choice read from the form: field -> header, or the problems with it. */
export function readColumnChoiceForm(
  body: Record<string, unknown>,
  headers: readonly string[],
): { ok: true; columns: ColumnMapping } | { ok: false; problems: string[] } {
  const columns: ColumnMapping = {};
  const problems: string[] = [];
  const used = new Set<string>();
  for (const field of CHOSEN_FIELDS) {
    const header = typeof body[field] === "string" ? (body[field] as string) : "";
    if (header === "") continue;
    if (!headers.includes(header)) problems.push(PAYMENT_CHECK_TEXT.notAColumn.replace("{header}", header));
    else if (used.has(header)) problems.push(PAYMENT_CHECK_TEXT.sameTwice.replace("{header}", header));
    else {
      used.add(header);
      columns[field] = header;
    }
  }
  if (!columns.bank_account && problems.length === 0) problems.push(PAYMENT_CHECK_TEXT.needAccount);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, columns };
}

/** POST /payments/columns: the choice is kept for the header, then the held file is checked with it. */
export function columnsHandler(kit: PageKit, showForm: ShowForm) {
  return async (request: FastifyRequest<{ Body: Record<string, unknown> }>, reply: FastifyReply) => {
    const deps = request.deps;
    const body = request.body ?? {};
    const heldId = String(body.held ?? "");
    const held = /^[0-9a-f-]{36}$/.test(heldId)
      ? await takeHeldUpload(deps.db.sql, heldId, request.user.name)
      : undefined;
    if (!held) {
      return kit.render(
        request,
        reply,
        "error",
        { title: PAYMENT_CHECK_TEXT.columnsTitle, message: PAYMENT_CHECK_TEXT.heldGone },
        410,
      );
    }
    const dir = await mkdtemp(path.join(tmpdir(), "regwatch-upload-"));
    let answer: () => Promise<FastifyReply> | FastifyReply;
    try {
      const saved = path.join(dir, "batch");
      await writeFile(saved, held.body, { mode: 0o600 });
      const options = held.options as unknown as CheckInput["options"] & { form: UploadForm };
      let file = saved;
      if (await looksLikeZip(saved)) {
        file = path.join(dir, "sheet.csv");
        await xlsxToCsv(saved, file);
      }
      const preview = await previewHeader(file, file === saved ? options.encoding : undefined);
      const choice = readColumnChoiceForm(body, preview.headers);
      if (!choice.ok) {
        const again = await holdUpload(deps.db.sql, { ...held, by: request.user.name });
        answer = () =>
          kit.render(
            request,
            reply,
            "payment-columns",
            {
              title: PAYMENT_CHECK_TEXT.columnsTitle,
              intro: PAYMENT_CHECK_TEXT.columnsIntro.replace("{file}", held.fileName),
              held: again,
              preview,
              fields: CHOSEN_FIELDS,
              problems: choice.problems,
            },
            400,
          );
      } else {
        await saveColumnChoice(deps.db.sql, {
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
        });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return answer();
  };
}

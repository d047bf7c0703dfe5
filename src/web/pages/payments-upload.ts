/**
 * POST /payments: a payment batch uploaded as multipart (file, `_csrf`, hold_days, encoding,
 * currency), reviewer or admin only. The CSRF field is checked before anything is checked or
 * recorded; the file is saved to a private temporary folder, checked by the same pipeline as
 * `payments check --record` (recorded with the signed-in user as who ran it, source web) and
 * deleted; the answer is 303 to the batch's page, or the form again (400) with the problems.
 */

import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import type { FastifyReply, FastifyRequest } from "fastify";
import { encodingOption } from "../../formats/read/encoding.ts";
import { type Translator, translatorFor } from "../../i18n/messages.ts";
import type { PageKit } from "../kit.ts";
import { checkUploadedFile } from "./payments-check.ts";
import type { ShowForm, UploadForm } from "./payments-form.ts";

export type { ShowForm, UploadForm };

/** What the form sent, before it is checked. */
interface Upload {
  fields: Record<string, string>;
  /** The saved file and the name it was sent under; null when no file was chosen. */
  file: { path: string; name: string; truncated: boolean } | null;
}

/**
 * Reads every part, saving the file into `dir`. The form sends `_csrf` before the file: when a
 * token that does not match came first, the file is read past and not saved.
 */
async function readUpload(
  request: FastifyRequest,
  dir: string,
  csrfOk: (token: string) => boolean,
): Promise<Upload> {
  const upload: Upload = { fields: {}, file: null };
  for await (const part of request.parts()) {
    if (part.type === "file") {
      const refused = upload.fields._csrf !== undefined && !csrfOk(upload.fields._csrf);
      if (part.filename === "" || refused) {
        part.file.resume();
        continue;
      }
      const saved = path.join(dir, "batch");
      await pipeline(part.file, createWriteStream(saved, { mode: 0o600 }));
      upload.file = { path: saved, name: part.filename, truncated: part.file.truncated };
    } else if (typeof part.value === "string") {
      upload.fields[part.fieldname] = part.value;
    }
  }
  return upload;
}

/** The options as the check takes them, or the problems with them, each naming its field. */
export function uploadOptions(
  fields: Record<string, string>,
  defaults: { holdDays: number },
  i18n: Translator = translatorFor("en"),
):
  | { ok: true; holdDays: number; encoding: string | undefined; currency: string }
  | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const holdText = (fields.hold_days ?? "").trim();
  const holdDays =
    holdText === "" ? defaults.holdDays : /^\d{1,4}$/.test(holdText) ? Number(holdText) : Number.NaN;
  if (!Number.isInteger(holdDays) || holdDays > 3650) {
    problems.push(i18n.t("payments.problem.holdDays", { value: holdText }));
  }
  const currency = (fields.currency ?? "").trim().toUpperCase() || "HUF";
  if (!/^[A-Z]{3}$/.test(currency))
    problems.push(i18n.t("payments.problem.currency", { value: fields.currency }));
  let encoding: string | undefined;
  const encodingText = (fields.encoding ?? "").trim();
  if (encodingText !== "") {
    try {
      encoding = encodingOption(encodingText);
    } catch (error) {
      problems.push((error as Error).message.replace(/^--encoding/, "encoding"));
    }
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, holdDays, encoding, currency };
}

export function uploadHandler(kit: PageKit, showForm: ShowForm) {
  /** Reads and checks the upload; returns how to answer, sent once the saved file is gone. */
  async function checkUpload(request: FastifyRequest, reply: FastifyReply, dir: string): Promise<Answer> {
    const deps = request.deps;
    const i18n = kit.i18n(request);
    const upload = await readUpload(request, dir, (token) => kit.verifyCsrf(request, token));
    if (!kit.verifyCsrf(request, upload.fields._csrf)) {
      return () =>
        kit.render(
          request,
          reply,
          "error",
          { title: i18n.t("error.csrf.title"), message: i18n.t("error.csrf.upload") },
          403,
        );
    }
    const otherAccount = kit.refuseOtherAccount(request, reply, upload.fields._account);
    if (otherAccount) return () => otherAccount;
    const form: UploadForm = {
      holdDays: upload.fields.hold_days ?? "",
      encoding: upload.fields.encoding ?? "",
      currency: upload.fields.currency ?? "",
      online: upload.fields.online === "1",
    };
    const options = uploadOptions(upload.fields, { holdDays: deps.config.paymentHoldDays }, i18n);
    const problems = options.ok ? [] : [...options.problems];
    if (!upload.file) problems.unshift(i18n.t("payments.problem.noFile"));
    else if (upload.file.truncated)
      problems.unshift(i18n.t("payments.problem.tooLarge", { name: upload.file.name }));
    if (problems.length > 0 || !options.ok || !upload.file) {
      return () => showForm(request, reply, 400, { form, problems });
    }
    return checkUploadedFile(kit, showForm, request, reply, {
      path: upload.file.path,
      name: upload.file.name,
      form,
      options: { ...options, online: form.online === true },
    });
  }

  return async (request: FastifyRequest, reply: FastifyReply) => {
    const dir = await mkdtemp(path.join(tmpdir(), "regwatch-upload-"));
    // The answer goes out only once the saved file is deleted: nothing of it outlives the request.
    let answer: Answer;
    try {
      answer = await checkUpload(request, reply, dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return answer();
  };
}

type Answer = () => Promise<FastifyReply> | FastifyReply;

/**
 * A payment batch's evidence report as a document, pure: the file and who checked it, the columns
 * read, every row's verdict, the registry evidence and confirmations per payee, the totals held
 * and released, in the reader's language. renderPdf (src/formats/write/pdf-document.ts) prints it.
 */
import type { PdfBlock, PdfReport } from "../formats/write/pdf-document.ts";
import type { Formats } from "../i18n/format.ts";
import type { MessageKey, Translator } from "../i18n/messages.ts";
import { storedWords } from "../i18n/said-words.ts";
import { wordOf } from "../i18n/words.ts";
import type { BatchReportData, ReportBatch, ReportChange } from "./sql/evidence-report.ts";

export interface ReportMoment {
  /** When the report is made (stated in it; the PDF's CreationDate). */
  madeAt: Date;
  /** regwatch's version. */
  version: string;
}

const FIELDS = ["bank_account", "tax_id", "name", "amount", "currency", "reference"] as const;

export function batchEvidenceReport(
  data: BatchReportData,
  i18n: Translator,
  formats: Formats,
  moment: ReportMoment,
): PdfReport {
  const { batch } = data;
  const name = batch.fileName ?? batch.id;
  const made = formats.dateTime(moment.madeAt);
  const blocks: PdfBlock[] = [
    { kind: "title", text: i18n.t("evidence.title", { name }) },
    { kind: "paragraph", text: i18n.t("evidence.madeAt", { when: made, version: moment.version }) },
    { kind: "paragraph", text: i18n.t("evidence.sameBatch") },
    { kind: "heading", text: i18n.t("evidence.section.file") },
    { kind: "fields", rows: fileFields(batch, i18n, formats) },
  ];
  if (batch.finishedAt === null)
    blocks.push({ kind: "paragraph", text: i18n.t("evidence.file.interrupted") });
  blocks.push(...columnBlocks(batch, i18n, formats));
  blocks.push(
    { kind: "heading", text: i18n.t("evidence.section.rows") },
    {
      kind: "table",
      columns: [
        { title: i18n.t("batch.col.line"), share: 0.65 },
        { title: i18n.t("evidence.col.payeeAccount"), share: 3 },
        { title: i18n.t("batch.col.amount"), share: 1.9 },
        { title: i18n.t("batch.col.verdict"), share: 1.4 },
        { title: i18n.t("evidence.col.detail"), share: 2.5 },
        { title: i18n.t("evidence.col.next"), share: 2.6 },
      ],
      rows: data.rows.map((r) => [
        formats.number(r.line),
        [r.registryName ?? r.name ?? "", r.taxId ?? "", r.bankAccount].filter(Boolean).join("\n"),
        r.amount === null ? (r.amountRaw ?? "") : formats.money(r.amount, r.currency),
        wordOf(i18n, "verdict", r.verdict),
        storedWords(i18n, formats, r.detailSaid, r.detail) ?? "",
        storedWords(i18n, formats, r.nextStepSaid, r.nextStep) ?? "",
      ]),
    },
    { kind: "heading", text: i18n.t("evidence.section.payees") },
    payeeTable(data, i18n, formats),
    { kind: "heading", text: i18n.t("evidence.section.confirmations") },
    data.confirmations.length === 0
      ? { kind: "paragraph", text: i18n.t("evidence.confirmations.none") }
      : {
          kind: "table",
          columns: [
            { title: i18n.t("evidence.col.taxId"), share: 1 },
            { title: i18n.t("evidence.col.account"), share: 2.2 },
            { title: i18n.t("evidence.col.who"), share: 1 },
            { title: i18n.t("evidence.col.when"), share: 1.4 },
            { title: i18n.t("evidence.col.why"), share: 2.5 },
          ],
          rows: data.confirmations.map((c) => [
            c.taxId,
            c.account,
            c.by,
            formats.dateTime(c.at),
            c.note ?? "",
          ]),
        },
    ...totalBlocks(batch, i18n, formats),
  );
  return {
    title: i18n.t("evidence.title", { name }),
    author: `regwatch ${moment.version}`,
    madeAt: moment.madeAt,
    footer: i18n.t("evidence.footer", { id: batch.id, sha: batch.fileSha256 ?? "—", when: made }),
    blocks,
  };
}

function fileFields(batch: ReportBatch, i18n: Translator, formats: Formats): [string, string][] {
  const notKept = i18n.t("evidence.file.notKept");
  const rows: [string, string][] = [
    [i18n.t("evidence.file.name"), batch.fileName ?? ""],
    [
      i18n.t("evidence.file.size"),
      batch.fileSize === null ? notKept : i18n.t("evidence.file.bytes", { bytes: batch.fileSize }),
    ],
    [i18n.t("evidence.file.sha256"), batch.fileSha256 ?? notKept],
    [i18n.t("evidence.file.uploadedBy"), batch.checkedBy ?? i18n.t("evidence.file.nobody")],
    [i18n.t("evidence.file.uploadedAt"), `${formats.dateTime(batch.checkedAt)} (${formats.timeZone})`],
    [i18n.t("evidence.file.through"), sourceWords(i18n, batch.source)],
    [i18n.t("evidence.file.batch"), batch.id],
  ];
  if (batch.recheckedFrom) rows.push([i18n.t("evidence.file.recheckOf"), batch.recheckedFrom]);
  const layout = [
    batch.encoding ? i18n.t("batch.layout.encoding", { value: batch.encoding }) : null,
    batch.delimiter === "\t"
      ? i18n.t("batch.layout.tabs")
      : batch.delimiter
        ? i18n.t("batch.layout.delimiter", { value: batch.delimiter })
        : null,
  ].filter((x): x is string => x !== null);
  if (layout.length > 0) rows.push([i18n.t("evidence.file.layout"), layout.join(", ")]);
  if (batch.checkedOn) rows.push([i18n.t("evidence.file.checkedOn"), formats.day(batch.checkedOn)]);
  if (batch.holdDays !== null)
    rows.push([i18n.t("evidence.file.holdDays"), i18n.t("evidence.file.days", { days: batch.holdDays })]);
  return rows;
}

function sourceWords(i18n: Translator, source: string): string {
  const key = `payments.source.${source}`;
  return i18n.has(key) ? i18n.t(key) : source;
}

function columnBlocks(batch: ReportBatch, i18n: Translator, formats: Formats): PdfBlock[] {
  const heading: PdfBlock = { kind: "heading", text: i18n.t("evidence.section.columns") };
  if (batch.readColumns === null)
    return [heading, { kind: "paragraph", text: i18n.t("evidence.columns.notKept") }];
  const read = batch.readColumns;
  const known = new Set<string>(FIELDS);
  const fields = [
    ...FIELDS,
    ...Object.keys(read)
      .filter((f) => !known.has(f))
      .sort(),
  ];
  const rows = fields.flatMap((field) => {
    const header = read[field];
    if (header === undefined) return [];
    const key = `columns.field.${field}`;
    return [[i18n.has(key) ? i18n.t(key) : field, i18n.t("batch.columns.quoted", { header })]];
  });
  const blocks: PdfBlock[] = [
    heading,
    {
      kind: "table",
      columns: [
        { title: i18n.t("evidence.col.field"), share: 1 },
        { title: i18n.t("evidence.col.column"), share: 2 },
      ],
      rows,
    },
  ];
  const ignored = batch.ignoredColumns ?? [];
  const list = new Intl.ListFormat(i18n.locale, { type: "conjunction" });
  blocks.push({
    kind: "paragraph",
    text:
      ignored.length === 0
        ? i18n.t("batch.columns.noneIgnored")
        : i18n.t("evidence.columns.ignored", {
            list: list.format(ignored.map((header) => i18n.t("batch.columns.quoted", { header }))),
          }),
  });
  if (batch.columnsChosenBy && batch.columnsChosenAt)
    blocks.push({
      kind: "paragraph",
      text: i18n.t("batch.columns.chosen", {
        who: batch.columnsChosenBy,
        when: formats.dateTime(batch.columnsChosenAt),
      }),
    });
  return blocks;
}

function changeWords(i18n: Translator, change: ReportChange): string {
  const headings = change.headings.map((h) => wordOf(i18n, "heading", h)).join(", ");
  if (!change.path) return i18n.t("evidence.payee.changeNoFile", { headings });
  const statusKey = `evidence.fileStatus.${change.fileStatus ?? "pending"}`;
  const status = i18n.has(statusKey) ? i18n.t(statusKey as MessageKey) : (change.fileStatus ?? "");
  return i18n.t("evidence.payee.change", { headings, path: change.path, status });
}

function payeeTable(data: BatchReportData, i18n: Translator, formats: Formats): PdfBlock {
  if (data.payees.length === 0) return { kind: "paragraph", text: i18n.t("evidence.payee.none") };
  const rows: string[][] = [];
  for (const payee of data.payees) {
    const who = [payee.name ?? "", payee.taxId].filter(Boolean).join("\n");
    const found: [string, string][] = [];
    if (payee.recordReadAt)
      found.push([i18n.t("evidence.payee.record"), formats.dateTime(payee.recordReadAt)]);
    for (const c of data.changes.filter((x) => x.taxId === payee.taxId))
      found.push([changeWords(i18n, c), formats.day(c.changeDate)]);
    if (found.length === 0) found.push([i18n.t("evidence.payee.none"), ""]);
    for (const [i, [what, when]] of found.entries()) rows.push([i === 0 ? who : "", what, when]);
  }
  return {
    kind: "table",
    columns: [
      { title: i18n.t("batch.col.payee"), share: 1.6 },
      { title: i18n.t("evidence.col.evidence"), share: 3.4 },
      { title: i18n.t("evidence.col.date"), share: 1.3 },
    ],
    rows,
  };
}

function totalBlocks(batch: ReportBatch, i18n: Translator, formats: Formats): PdfBlock[] {
  return [
    { kind: "heading", text: i18n.t("evidence.section.totals") },
    {
      kind: "paragraph",
      text: i18n.t("evidence.totals.rows", { rows: batch.rowCount, held: formats.number(batch.heldCount) }),
    },
    {
      kind: "table",
      columns: [
        { title: i18n.t("batch.col.currency"), share: 0.8 },
        { title: i18n.t("batch.col.total"), share: 1.5 },
        { title: i18n.t("batch.col.held"), share: 1.5 },
        { title: i18n.t("evidence.col.released"), share: 1.5 },
        { title: i18n.t("batch.col.rows"), share: 0.8 },
        { title: i18n.t("batch.col.heldRows"), share: 1.2 },
        { title: i18n.t("evidence.col.releasedRows"), share: 1.2 },
      ],
      rows: batch.totals.map((t) => [
        t.currency,
        formats.money(t.amount, t.currency),
        formats.money(t.held, t.currency),
        formats.money(released(t.amount, t.held), t.currency),
        formats.number(t.rows),
        formats.number(t.held_rows),
        formats.number(t.rows - t.held_rows),
      ]),
    },
  ];
}

function decimals(x: string): number {
  const dot = x.indexOf(".");
  return dot < 0 ? 0 : x.length - dot - 1;
}

/** `amount - held` of two exact decimal strings, through integers of the smallest unit. */
export function released(amount: string, held: string): string {
  const scale = Math.max(decimals(amount), decimals(held));
  const units = (x: string) => {
    const [whole, fraction = ""] = x.replace("-", "").split(".");
    const value = BigInt(`${whole}${fraction.padEnd(scale, "0")}`);
    return x.startsWith("-") ? -value : value;
  };
  const diff = units(amount) - units(held);
  const digits = (diff < 0n ? -diff : diff).toString().padStart(scale + 1, "0");
  const sign = diff < 0n ? "-" : "";
  return scale === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

/**
 * The demo's payment batch: a few payments to its suppliers (one to an account no source shows,
 * one with a tax number that cannot exist) checked and recorded as `payments check --record`
 * would, then its evidence report written as a PDF beside the demo's data. Returns the PDF's path.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config.ts";
import { localDateTime } from "../dates.ts";
import type { Database } from "../db/connect.ts";
import { fileDigest } from "../formats/read/file-digest.ts";
import { batchEvidencePdf } from "../payments/evidence-pdf.ts";
import { checkBatch } from "../payments/pipeline.ts";
import { loadBankAccountsOf } from "../payments/sql/evidence.ts";
import { packageVersion } from "../version.ts";

export async function demoEvidenceReport(
  db: Database,
  config: Config,
  suppliers: readonly string[],
): Promise<{ batchId: string; pdf: string; held: number; rows: number } | null> {
  const registered = (await loadBankAccountsOf(db.sql, suppliers)).filter((a) => a.currentlyRegistered);
  const known = [...new Map(registered.map((a) => [a.taxId, a])).values()].slice(0, 4);
  const lines = [
    "Adószám;Számlaszám;Összeg;Pénznem;Közlemény",
    ...known.map((k, i) => `${k.taxId};${k.account};${(i + 1) * 125_000};HUF;SZLA-2026-${i + 1}`),
    `${suppliers[0] ?? "10000000"};11773016-99999999;48000;HUF;SZLA-2026-9`,
    "12345678;11773016-11111018;5000;HUF;SZLA-2026-10",
  ];
  const dir = path.resolve(config.dataDir);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, "demo-utalasok.csv");
  await writeFile(file, `${lines.join("\n")}\n`);
  const today = localDateTime(new Date(), config.registryTz).date;
  const result = await checkBatch(
    db,
    file,
    {
      read: { currency: "HUF" },
      holdDays: config.paymentHoldDays,
      today,
      recheckDays: config.paymentRecheckDays,
      acceptUnconfirmed: config.paymentAcceptUnconfirmed,
      timeZone: config.registryTz,
      online: null,
      record: { by: "demo", source: "cli", fileName: file, file: await fileDigest(file) },
    },
    [],
  );
  if (!result.ok || !result.summary.batchId) return null;
  const batchId = result.summary.batchId;
  const pdf = await batchEvidencePdf(db.sql, batchId, {
    locale: config.locale,
    timeZone: config.tz,
    madeAt: new Date(),
    version: packageVersion(),
  });
  const pdfFile = path.join(dir, `evidence-${batchId}.pdf`);
  await writeFile(pdfFile, pdf!);
  return { batchId, pdf: pdfFile, held: result.summary.heldCount, rows: result.summary.rowCount };
}

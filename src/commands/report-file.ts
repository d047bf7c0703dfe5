/**
 * What `payments report` and `alerts report` share: `--pdf FILE` checked before any work (its
 * folder must exist and be writable), `--lang hu|en` (default REGWATCH_LOCALE), and the file
 * written whole or not at all (a temporary file renamed into place).
 */
import { constants } from "node:fs";
import { access, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { Option } from "commander";
import { UsageError } from "../errors.ts";
import { terminalSafe } from "../formats/terminal-text.ts";
import type { Locale } from "../i18n/locales.ts";

export function langOption(): Option {
  return new Option("--lang <language>", "the report's language (default REGWATCH_LOCALE)").choices([
    "hu",
    "en",
  ]);
}

export async function checkPdfTarget(file: string | undefined): Promise<string> {
  if (!file) throw new UsageError("--pdf FILE is required: where to write the report");
  const dir = path.dirname(path.resolve(file));
  await access(dir, constants.W_OK).catch(() => {
    throw new UsageError(
      `cannot write ${terminalSafe(file)}: the folder ${terminalSafe(dir)} does not exist or is not writable`,
    );
  });
  return file;
}

export function reportLocale(lang: string | undefined, fallback: Locale): Locale {
  return lang === "hu" || lang === "en" ? lang : fallback;
}

export async function writeReportFile(file: string, bytes: Buffer): Promise<void> {
  const partial = `${file}.partial`;
  try {
    await writeFile(partial, bytes);
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * Codes as words in the reader's language: headings, business status and type, chapters,
 * sources, alert states, run kinds and figures, verdicts. A code the catalog has no word for is
 * shown as it is (a heading the registry adds later reads as its key until it gets a label).
 */
import type { MessageKey, Translator } from "./messages.ts";

export type Vocabulary =
  | "heading"
  | "businessStatus"
  | "businessType"
  | "chapter"
  | "source"
  | "alertStatus"
  | "alertEvent"
  | "delivery"
  | "messageKind"
  | "runKind"
  | "runStatus"
  | "runTrigger"
  | "stat"
  | "listState"
  | "verdict"
  | "dayState"
  | "role"
  | "memberSource"
  | "channel";

/** A code and how it is said; `known` false: no word yet, `label` is the code. */
export interface Term {
  key: string;
  label: string;
  known: boolean;
}

export function termOf(i18n: Translator, vocabulary: Vocabulary, code: string | number): Term {
  const key = String(code);
  const id = `${vocabulary}.${key}`;
  if (i18n.has(id)) return { key, label: i18n.t(id as MessageKey), known: true };
  return { key, label: key, known: false };
}

/** The word for a code, or the code itself. */
export function wordOf(
  i18n: Translator,
  vocabulary: Vocabulary,
  code: string | number | null | undefined,
): string {
  if (code === null || code === undefined || code === "") return "";
  return termOf(i18n, vocabulary, code).label;
}

/** Headings whose value is the registry's status (change files say status, search records status_code). */
const STATUS_HEADINGS = new Set(["status", "status_code"]);

/** A status value (0, "1", "ceased") in words; undefined when it is not one. */
export function statusValueWords(i18n: Translator, value: unknown): string | undefined {
  const code =
    typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : undefined;
  if (code === undefined) return undefined;
  const term = termOf(i18n, "businessStatus", code);
  return term.known ? term.label : undefined;
}

export function isStatusHeading(heading: string): boolean {
  return STATUS_HEADINGS.has(heading);
}

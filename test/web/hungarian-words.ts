/**
 * What a Hungarian page must not show a reader: words of the English catalog that no Hungarian
 * message uses, catalog keys and snake_case codes, `regwatch …` commands, ISO dates and the bare
 * name of the system account. Pure: the browser test hands it the texts it read.
 */
import { CATALOGS } from "../../src/i18n/catalogs/index.ts";

/** ICU syntax and names that read alike in both languages. */
const NOT_ENGLISH = new Set([
  ...["plural", "select", "selectordinal", "other", "one", "few", "many", "zero", "two"],
  ...["regwatch", "csv", "xlsx", "excel", "iban", "notify", "webhook", "e-mail", "smtp", "postgres"],
  ...["url", "http", "https", "json", "api", "utf", "windows", "bic", "kft", "zrt", "cet", "cest"],
  // A Hungarian given name (Edit) in the registry's data.
  "edit",
]);

/** The commands of the command line (`regwatch` alone is the product's name in a sentence). */
const COMMANDS =
  /\bregwatch (?:migrate|sync|backfill|reconcile|daemon|status|lookup|watch|grant-reader|demo|emulator|changes|reparse|alerts|payments|db|coverage|doctor|web|users|enqueue|worker)\b/g;

const words = (text: string) =>
  text
    .replace(/\{[a-zA-Z]+\}/g, " ")
    .toLowerCase()
    .split(/[^\p{L}'-]+/u)
    .map((w) => w.replace(/^['-]+|['-]+$/g, ""))
    .filter((w) => w.length >= 3);

/** Words of the English catalog that no Hungarian message holds. */
export function englishOnlyWords(): Set<string> {
  const hungarian = new Set(Object.values(CATALOGS.hu).flatMap(words));
  const english = Object.values(CATALOGS.en).flatMap(words);
  return new Set(english.filter((w) => !hungarian.has(w) && !NOT_ENGLISH.has(w)));
}

const KEYS = new Set(Object.keys(CATALOGS.en));

export interface Finding {
  what: "english" | "key" | "command" | "iso-date" | "system-account";
  found: string;
  text: string;
}

/** What is wrong in one text a reader sees, once the user's own data has been taken out of it. */
export function findingsIn(text: string, english: Set<string>): Finding[] {
  const out: Finding[] = [];
  const add = (what: Finding["what"], found: string) => out.push({ what, found, text: text.slice(0, 200) });
  for (const w of words(text)) if (english.has(w)) add("english", w);
  // An identifier (a message id, a remote list's key) is data; a quoted header name is the file's.
  for (const m of text.matchAll(/(?<!„)\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g))
    if (!/_[0-9a-f]{8,}$/.test(m[0])) add("key", m[0]);
  for (const m of text.matchAll(/\b[a-zA-Z]+(?:\.[a-zA-Z_]+)+\b/g)) if (KEYS.has(m[0])) add("key", m[0]);
  for (const m of text.matchAll(COMMANDS)) add("command", m[0]);
  for (const m of text.matchAll(/\b\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?\b/g)) add("iso-date", m[0]);
  for (const m of text.matchAll(/(?<![„"“])\broot\b(?![”"])/g)) add("system-account", m[0]);
  return out;
}

/** `text` with every occurrence of the user's data (names, list names, file names) blanked. */
export function withoutUserData(text: string, userData: string[]): string {
  let out = text;
  for (const d of userData) if (d.length >= 2 && out.includes(d)) out = out.split(d).join(" ");
  return out;
}

/**
 * The catalogs are complete: Hungarian and English have the same keys, every message parses as
 * ICU MessageFormat with the same placeholders in both languages, and every key the code or a
 * template names exists. A new string added in English only fails here (and in typecheck).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { CATALOGS } from "../../src/i18n/catalogs/index.ts";

const SRC = path.join(import.meta.dirname, "../../src");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "catalogs" ? [] : files(full);
    return /\.(ts|eta)$/.test(e.name) ? [full] : [];
  });
}

/**
 * The values a message shows, sorted: its arguments, and a plural's number where it prints it
 * (`#`). A plural that only chooses the word (Hungarian needs none) shows nothing.
 */
/** The parser's element kinds (@formatjs/icu-messageformat-parser's TYPE), as the AST numbers them. */
const TYPE = { argument: 1, number: 2, date: 3, select: 5, plural: 6, pound: 7 } as const;

interface Element {
  type: number;
  value?: string;
  options?: Record<string, { value: Element[] }>;
}

function shown(message: string): string[] {
  const names = new Set<string>();
  const walk = (elements: readonly Element[], plural?: string) => {
    for (const e of elements) {
      if (e.type === TYPE.argument || e.type === TYPE.number || e.type === TYPE.date) names.add(e.value!);
      if (e.type === TYPE.pound && plural) names.add(plural);
      if (e.type === TYPE.plural || e.type === TYPE.select) {
        for (const option of Object.values(e.options ?? {}))
          walk(option.value, e.type === TYPE.plural ? e.value : plural);
      }
    }
  };
  walk(new IntlMessageFormat(message, "en", undefined, { ignoreTag: true }).getAst() as unknown as Element[]);
  return [...names].sort();
}

describe("the message catalogs", () => {
  it("have the same keys in Hungarian and English", () => {
    expect(Object.keys(CATALOGS.hu).sort()).toEqual(Object.keys(CATALOGS.en).sort());
  });

  it("parse, and show the same values in both languages, none empty", () => {
    for (const [key, english] of Object.entries(CATALOGS.en)) {
      const hungarian = CATALOGS.hu[key as keyof typeof CATALOGS.hu];
      expect(english.trim(), key).not.toBe("");
      expect(hungarian.trim(), key).not.toBe("");
      expect(shown(hungarian), key).toEqual(shown(english));
    }
  });

  it("hold every key the code and the templates name", () => {
    const used = new Map<string, string>();
    // t("key" …), it.t('key' …), i18n.t("key" …), and catalog keys handed over as values ("lists.group.add").
    const call = /\bt\(\s*["'`]([a-z][A-Za-z]*\.[A-Za-z0-9_.]+)["'`]/g;
    const handed = /["']((?:lists\.group|batch\.layout|fileState|reason|error|login)\.[A-Za-z0-9_.]+)["']/g;
    for (const file of files(SRC)) {
      const text = readFileSync(file, "utf8");
      for (const pattern of [call, handed])
        for (const match of text.matchAll(pattern)) used.set(match[1]!, path.relative(SRC, file));
    }
    expect(used.size).toBeGreaterThan(300);
    const missing = [...used]
      .filter(([key]) => !(key in CATALOGS.en))
      .map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });
});

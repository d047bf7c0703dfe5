/**
 * A sentence as data: a catalog code and its values, beside the English text the command line
 * prints. What an engine says that a console reader also reads (a payment verdict's detail, a
 * validation message) is made as one: the CLI prints `text` as it always has, the console says
 * `code` in the reader's language (src/i18n/said-words.ts). Values are text as it is, numbers
 * (plural choices), days (YYYY-MM-DD, shown as the reader writes days) and lists.
 */
export type SaidValue = string | number | readonly string[];
export type SaidValues = Readonly<Record<string, SaidValue>>;

export interface Said {
  /** The catalog key the console says it with. */
  code: string;
  values: SaidValues;
  /** The English sentence (the CLI's words). */
  text: string;
}

/** What is stored of a Said (jsonb): the code and its values; the English lives in its own column. */
export interface StoredSaid {
  code: string;
  values: SaidValues;
}

export function said(code: string, values: SaidValues, text: string): Said {
  return { code, values, text };
}

export function storedSaid(s: Said): StoredSaid {
  return { code: s.code, values: s.values };
}

/** A refusal whose message is also said in the reader's language (`message` stays the English). */
export class SaidError extends Error {
  readonly said: readonly Said[];
  constructor(said: Said | readonly Said[]) {
    const all = Array.isArray(said) ? (said as readonly Said[]) : [said as Said];
    super(all.map((s) => s.text).join("; "));
    this.name = "SaidError";
    this.said = all;
  }
}

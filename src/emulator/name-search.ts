/**
 * Name search rules of the registry: a query word matches the beginning of a word of the name,
 * accents are ignored, several words must all match, and a word typed without its spaces
 * ("kovacsestarsa") still matches from a word beginning across the following words.
 */

// Folding of each non-ASCII character, computed once: NFD on whole names was the index's main cost.
const foldedChars = new Map<string, string>();

function foldChar(ch: string): string {
  let folded = foldedChars.get(ch);
  if (folded === undefined) {
    folded = ch
      .normalize("NFD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase();
    foldedChars.set(ch, folded);
  }
  return folded;
}

/** Lower case, accents removed, every run of non-letters and non-digits turned into one space. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^ -~]/g, foldChar)
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

export function foldedWords(text: string): string[] {
  const folded = foldText(text);
  return folded === "" ? [] : folded.split(" ");
}

/** The texts a query word may start: the name from each word beginning on, spaces removed. */
function wordStartRuns(words: readonly string[]): string[] {
  return words.map((_, k) => words.slice(k).join(""));
}

/** True when every query word starts at a word beginning of the name. */
export function nameMatches(nameWords: readonly string[], queryWords: readonly string[]): boolean {
  const runs = wordStartRuns(nameWords);
  return queryWords.every((q) => runs.some((run) => run.startsWith(q)));
}

const KEY_LENGTH = 3;

/**
 * An index from the first three letters of every word-start run to the records having it. Queries
 * are at least three characters long, so their longest word usually selects one short bucket; the
 * candidates are then checked against the full rule.
 */
export class NameIndex {
  // Folded names joined by spaces: far smaller than word arrays for a large data set.
  private readonly names: string[][] = [];
  private readonly buckets = new Map<string, number[]>();

  /** Adds a record by position; `names` are its full and short names. */
  add(names: readonly string[]): void {
    const position = this.names.length;
    const folded = names.map(foldedWords);
    this.names.push(folded.map((words) => words.join(" ")));
    const keys = new Set<string>();
    for (const words of folded) {
      for (let k = 0; k < words.length; k++) {
        // Only the first three letters of each run are needed, so join just enough words.
        let key = words[k]!;
        for (let j = k + 1; key.length < KEY_LENGTH && j < words.length; j++) key += words[j];
        keys.add(key.slice(0, KEY_LENGTH));
      }
    }
    for (const key of keys) {
      const bucket = this.buckets.get(key);
      if (bucket) bucket.push(position);
      else this.buckets.set(key, [position]);
    }
  }

  /** Positions of the first `max` matching records, in data set order. */
  search(query: string, max: number): number[] {
    const queryWords = foldedWords(query);
    if (queryWords.length === 0) return [];
    const longest = queryWords.reduce((a, b) => (b.length > a.length ? b : a));
    const candidates =
      longest.length >= KEY_LENGTH
        ? (this.buckets.get(longest.slice(0, KEY_LENGTH)) ?? [])
        : this.names.map((_, position) => position);
    const hits: number[] = [];
    for (const position of candidates) {
      if (hits.length >= max) break;
      const names = this.names[position] ?? [];
      if (names.some((name) => nameMatches(name.split(" "), queryWords))) hits.push(position);
    }
    return hits;
  }

  get size(): number {
    return this.names.length;
  }
}

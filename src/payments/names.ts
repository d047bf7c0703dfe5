/**
 * Whether the payee name a payment file gives is one of the registry's names of the business
 * (pure). Names are compared as words: lower case, accents dropped (ő → o), punctuation and
 * spacing ignored, and the legal form at the end dropped (Kft., Zrt., "korlátolt felelősségű
 * társaság", e.v., "f.a." and the like), since files and registries write those every which way.
 *
 * Two names match when their words are the same, or when the file's words (at least two of them)
 * occur in the registry name in the same order: a file may shorten "Példa Kereskedelmi és
 * Szolgáltató Kft." to "Példa Kereskedelmi", but one word is not enough ("Mol" would let any
 * "Mol Ingatlan" through) and the file adding words to the registry's name never matches (a
 * short name such as "Magyar Telekom" would otherwise pass "Magyar Telekom Ingatlankezelő").
 */

/**
 * Legal forms and status suffixes as word sequences, after normalising; longest first so a
 * spelt-out form goes before a shorter one that ends it.
 */
const LEGAL_FORMS: readonly string[][] = [
  "nyilvanosan mukodo reszvenytarsasag",
  "zartkoruen mukodo reszvenytarsasag",
  "nonprofit korlatolt felelossegu tarsasag",
  "korlatolt felelossegu tarsasag",
  "kozhasznu tarsasag",
  "kozkereseti tarsasag",
  "beteti tarsasag",
  "egyeni vallalkozo",
  "egyeni ceg",
  "reszvenytarsasag",
  "szovetkezet",
  "egyesulet",
  "alapitvany",
  "felszamolas alatt",
  "vegelszamolas alatt",
  "csodeljaras alatt",
  "kenyszertorles alatt",
  "nonprofit kft",
  "nonprofit zrt",
  "kft",
  "zrt",
  "nyrt",
  "rt",
  "bt",
  "kkt",
  "kht",
  "ev",
  "e v",
  "ec",
  "e c",
  "fa",
  "f a",
  "va",
  "v a",
  "cs a",
  "llc",
  "ltd",
  "gmbh",
  "inc",
].map((form) => form.split(" "));

/** Lower case, no accents, `&` as "es", every run of other characters a single word break. */
export function nameWords(name: string): string[] {
  const plain = name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/&/g, " es ")
    // Points inside abbreviations (e.v., f.a.) join their letters; elsewhere punctuation parts words.
    .replace(/\b(\p{L})\.(?=\p{L}\b)/gu, "$1 ");
  return plain.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");
}

function endsWith(words: readonly string[], tail: readonly string[]): boolean {
  if (tail.length >= words.length) return false; // a name that is only a legal form keeps it
  return tail.every((w, i) => words[words.length - tail.length + i] === w);
}

/** A name's words without the legal forms and status suffixes at its end. */
export function normaliseName(name: string): string[] {
  const words = nameWords(name);
  let trimmed = true;
  while (trimmed) {
    trimmed = false;
    for (const form of LEGAL_FORMS) {
      if (endsWith(words, form)) {
        words.length -= form.length;
        trimmed = true;
        break;
      }
    }
  }
  return words;
}

/** Whether `part` occurs within `whole` word by word, in order (gaps allowed). */
function inOrder(part: readonly string[], whole: readonly string[]): boolean {
  let at = 0;
  for (const word of whole) if (at < part.length && word === part[at]) at++;
  return at === part.length;
}

export type NameMatch = "equal" | "shortened";

/** A name's words without legal form, and the same joined by blanks (compared for equality). */
interface Normalised {
  words: readonly string[];
  joined: string;
}

/**
 * Normalised names already computed: a batch names the same suppliers again and again. Emptied
 * when it grows past a bound, so memory stays bounded whatever the batch.
 */
const normalised = new Map<string, Normalised>();
const NORMALISED_LIMIT = 50_000;

function normalisedName(name: string): Normalised {
  let found = normalised.get(name);
  if (found === undefined) {
    if (normalised.size >= NORMALISED_LIMIT) normalised.clear();
    const words = normaliseName(name);
    found = { words, joined: words.join(" ") };
    normalised.set(name, found);
  }
  return found;
}

function matchNormalised(file: Normalised, registry: Normalised): NameMatch | null {
  if (file.words.length === 0 || registry.words.length === 0) return null;
  if (file.joined === registry.joined) return "equal";
  const shorter = file.words.length >= 2 && file.words.length < registry.words.length;
  return shorter && inOrder(file.words, registry.words) ? "shortened" : null;
}

/** The registry name the file's name matches (one it equals before one it shortens), or null. */
export function findMatchingName(fileName: string, registryNames: readonly string[]): string | null {
  const file = normalisedName(fileName);
  let shortened: string | null = null;
  for (const name of registryNames) {
    const how = matchNormalised(file, normalisedName(name));
    if (how === "equal") return name;
    if (how === "shortened" && shortened === null) shortened = name;
  }
  return shortened;
}

/**
 * What a pure function of a text gave, kept for texts met again: a payment batch repeats its
 * payees' tax numbers, names, accounts and verdicts' words row after row, and an output that
 * escapes or encodes each of them for every row did the same work thousands of times. Bounded:
 * LIMIT texts of at most KEPT_CHARS characters (longer ones are made each time), then it starts
 * again. One per output, since what `make` gives may depend on the output's own settings.
 */
const LIMIT = 20_000;
const KEPT_CHARS = 500;

export class KeptTexts {
  private readonly kept = new Map<string, string>();

  constructor(private readonly make: (text: string) => string) {}

  /** make(text). */
  of(text: string): string {
    let made = this.kept.get(text);
    if (made === undefined) {
      made = this.make(text);
      if (text.length <= KEPT_CHARS) {
        if (this.kept.size >= LIMIT) this.kept.clear();
        this.kept.set(text, made);
      }
    }
    return made;
  }
}

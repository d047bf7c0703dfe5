/**
 * What a pure function of a text gave, kept for texts met again: a payment batch repeats its
 * payees' tax numbers, names, accounts and verdicts' words row after row, and an output that
 * escapes or encodes each of them for every row did the same work thousands of times. Bounded:
 * LIMIT texts of at most KEPT_CHARS characters (longer ones are made each time). When full, it
 * starts again if at least as many texts were found as made since the last start; otherwise the
 * texts do not repeat (a payee a row) and it keeps none from then on, since texts kept and then
 * dropped outlive the young generation and only grow the heap. One per output, since what `make`
 * gives may depend on the output's own settings.
 */
const LIMIT = 20_000;
const KEPT_CHARS = 500;

export class KeptTexts {
  private readonly kept = new Map<string, string>();
  /** Texts found kept since the last start. */
  private found = 0;
  private keeping = true;

  constructor(private readonly make: (text: string) => string) {}

  /** Whether texts are still kept (false once they proved not to repeat). */
  get keeps(): boolean {
    return this.keeping;
  }

  /** make(text). */
  of(text: string): string {
    if (!this.keeping) return this.make(text);
    let made = this.kept.get(text);
    if (made !== undefined) {
      this.found++;
      return made;
    }
    made = this.make(text);
    if (text.length <= KEPT_CHARS) {
      if (this.kept.size >= LIMIT) {
        this.keeping = this.found >= LIMIT;
        this.kept.clear();
        this.found = 0;
      }
      if (this.keeping) this.kept.set(text, made);
    }
    return made;
  }
}

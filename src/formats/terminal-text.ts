/**
 * Text from the registry or another system shown on a terminal: control characters would move
 * the cursor, recolour the screen, forge a line of the report (a newline) or reorder what is read
 * (bidi overrides), so each is shown as a visible escape. JSON output keeps the text exact.
 */

// C0 controls (tab included), DEL, C1 controls, and the Unicode format characters that reorder
// or hide text: bidi embeddings, overrides and isolates, zero-width joiners, line/paragraph separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/** UNSAFE's character class, for a pattern that looks for these among other things in one search. */
export const UNSAFE_CLASS = UNSAFE.source;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\u001b": "\\e" };

/** The text with every unsafe character written as `\n`, `\e` or `\u{XXXX}`. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (c) => NAMED[c] ?? `\\u{${c.codePointAt(0)!.toString(16).padStart(4, "0")}}`);
}

/**
 * Several lines of text whose line breaks are meant (an error naming every bad variable, one a
 * line), each line escaped as terminalSafe does: a line break stays one, nothing else acts.
 */
export function terminalSafeLines(text: string): string {
  return text.split("\n").map(terminalSafe).join("\n");
}

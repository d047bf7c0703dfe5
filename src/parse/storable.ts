/**
 * What Postgres cannot hold: jsonb and text refuse the NUL character (U+0000) and a UTF-16
 * surrogate without its other half. JSON.parse accepts both (`"\u0000"`, `"\ud800"`), so a
 * file may hand them over; finding them here fails that file with a message instead of failing
 * the statement, and with it every other file of the batch. Pure.
 */

const NUL = "\u0000";
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function problemOf(text: string): string | null {
  if (text.includes(NUL)) return "a NUL character (\\u0000)";
  if (LONE_SURROGATE.test(text)) return "half of a UTF-16 surrogate pair";
  return null;
}

/** Where in `value` (a JSON value) a string Postgres cannot hold is, and what it holds; null when none. */
export function unstorable(value: unknown, where: string): string | null {
  // Iterative: a value may nest thousands of levels deep.
  const stack: { value: unknown; where: string }[] = [{ value, where }];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (typeof at.value === "string") {
      const problem = problemOf(at.value);
      if (problem) return `${at.where} holds ${problem}, which Postgres cannot store`;
    } else if (Array.isArray(at.value)) {
      at.value.forEach((v, i) => {
        stack.push({ value: v, where: `${at.where}[${i}]` });
      });
    } else if (typeof at.value === "object" && at.value !== null) {
      for (const [key, v] of Object.entries(at.value)) {
        const problem = problemOf(key);
        if (problem) return `a key in ${at.where} holds ${problem}, which Postgres cannot store`;
        stack.push({ value: v, where: `${at.where}.${key}` });
      }
    }
  }
  return null;
}

/**
 * A Postgres array literal of texts that reads back exactly the strings given. Most batches hold
 * only plain text, for which the array as JSON is already such a literal once its brackets become
 * braces (every element quoted, quotes and backslashes escaped the same way), and V8 writes it
 * far faster than a loop of string joins. JSON's other escapes (a newline as `\n`, `\u0001`)
 * mean something else in an array literal, so a batch that needs one of them takes the careful
 * path, element by element.
 */
export function textArrayLiteral(values: readonly string[]): string {
  const json = JSON.stringify(values);
  if (!OTHER_JSON_ESCAPE.test(json)) return `{${json.slice(1, -1)}}`;
  return `{${values.map(quoted).join(",")}}`;
}

/** A backslash not followed by a quote or a backslash (an escaped backslash before a letter also
 * matches, which only sends that batch down the careful path). */
const OTHER_JSON_ESCAPE = /\\[^"\\]/;

function quoted(value: string): string {
  return `"${value.replace(/[\\"]/g, "\\$&")}"`;
}

/**
 * A Postgres array literal of texts, each itself the literal of a text array (cast per row with
 * `::text[]`). When every string is a plain word (letters, digits, underscore; never a bare NULL)
 * the inner literals need no quotes, and so the outer one needs no escapes: what a batch of
 * heading names always is, built in half the time of the general path.
 */
export function nestedTextArrayLiteral(arrays: readonly (readonly string[])[]): string {
  for (const values of arrays) {
    for (const value of values) {
      if (!PLAIN_WORD.test(value) || (value.length === 4 && value.toLowerCase() === "null")) {
        return textArrayLiteral(arrays.map(textArrayLiteral));
      }
    }
  }
  return textArrayLiteral(arrays.map((values) => `{${values.join(",")}}`));
}

const PLAIN_WORD = /^[A-Za-z0-9_]+$/;

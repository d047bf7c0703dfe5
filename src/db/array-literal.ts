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

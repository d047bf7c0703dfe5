/**
 * The fields of a one-line record with quotes in the plainest shape (pure): each field either
 * unquoted, with no quote character and no blank at its ends, or wholly quoted, its quotes
 * doubled inside. That is how spreadsheets and bank exports quote a field holding the delimiter
 * or a quote, and csv-parse reads such a record to the same fields; anything else (a line break
 * or a blank next to a quote, a quote inside an unquoted field, text after a closing quote, half
 * of a surrogate pair, which csv-parse's UTF-8 round trip would change) is left to csv-parse.
 * Why: csv-parse prepares a parser for every record it is given, and the one record in a hundred
 * of the payments bench that quotes its reference cost as much as splitting the other 99.
 */

const QUOTE = 0x22;

/** A blank csv-parse's `trim` would take off a field's end (JavaScript's whitespace, as trim()). */
function isBlank(c: number): boolean {
  return (
    c === 0x20 ||
    (c >= 0x09 && c <= 0x0d) ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Whether `text[from, to)` has no blank at either end (an empty range has none). */
function unpadded(text: string, from: number, to: number): boolean {
  return to === from || (!isBlank(text.charCodeAt(from)) && !isBlank(text.charCodeAt(to - 1)));
}

/**
 * The record's fields when it has the plainest shape (see above), else undefined. `delimiter`
 * is one character, not a blank (a tab-separated file goes to csv-parse).
 */
export function plainQuotedFields(record: string, delimiter: string): string[] | undefined {
  const d = delimiter.charCodeAt(0);
  if (record === "" || delimiter.length !== 1 || isBlank(d) || d === QUOTE) return undefined;
  const fields: string[] = [];
  const end = record.length;
  let at = 0;
  for (;;) {
    if (record.charCodeAt(at) === QUOTE) {
      let value = "";
      let from = at + 1;
      let i = from;
      for (;;) {
        if (i >= end) return undefined; // the quote never closes
        const c = record.charCodeAt(i);
        if (c === 0x0a || c === 0x0d || (c >= 0xd800 && c <= 0xdfff)) return undefined;
        if (c !== QUOTE) {
          i++;
          continue;
        }
        if (record.charCodeAt(i + 1) === QUOTE) {
          value += record.slice(from, i + 1);
          i += 2;
          from = i;
          continue;
        }
        break;
      }
      fields.push(value + record.slice(from, i));
      at = i + 1;
      if (at === end) return fields;
      if (record.charCodeAt(at) !== d) return undefined;
      at++;
      continue;
    }
    let i = at;
    for (; i < end; i++) {
      const c = record.charCodeAt(i);
      if (c === d) break;
      if (c === QUOTE || c === 0x0a || c === 0x0d || (c >= 0xd800 && c <= 0xdfff)) return undefined;
    }
    if (!unpadded(record, at, i)) return undefined;
    fields.push(record.slice(at, i));
    if (i === end) return fields;
    at = i + 1;
  }
}

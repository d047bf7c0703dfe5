/**
 * Amounts and currencies as people write them in payment files (pure). Hungarian writes
 * `1.250.000,50`, `1 250 000 Ft` or `1250,-`; English `1,250.50`. The reading rules:
 * - blanks (also no-break and narrow no-break spaces) and apostrophes group thousands;
 * - when both `.` and `,` occur, the later one is the decimal mark and the other groups;
 * - one mark occurring several times groups thousands;
 * - one mark once, followed by one or two digits, is the decimal mark;
 * - one mark once, followed by exactly three digits, is either. For currencies paid in whole
 *   units in practice (the forint; Intl gives them no display decimals) it groups thousands, so
 *   `12.500` HUF is twelve thousand five hundred; for any other currency the amount is ambiguous
 *   and refused, never guessed;
 * - grouping is by three, or the text is not a number;
 * - `(1250)` is the accountants' negative, read as -1250 (the verdict then refuses it);
 * - a currency word or symbol before or after the number (Ft, HUF, EUR, €, USD, $, £) is taken off.
 * A plain decimal string comes out ("-1250000.5"): no grouping, no trailing fraction zeros.
 */

import { currencyDecimals, wholeInPractice } from "./currencies.ts";

export { type CurrencyReading, currencyDecimals, readCurrency, wholeInPractice } from "./currencies.ts";

export type AmountReading =
  | { kind: "amount"; amount: string }
  /** Not an amount: the row's verdict says so (invalid_amount). */
  | { kind: "problem"; problem: string }
  /** Could be read two ways: the whole file is refused, naming the row. */
  | { kind: "ambiguous"; problem: string };

const BLANKS = /[\u00a0\u202f\u2007\u2009]/g;
const A_BLANK = /[\u00a0\u202f\u2007\u2009]/;

/**
 * Whether `text` holds a space plainSpaces makes plain: asked once of a whole piece of a file,
 * whose fields then need no plainSpaces each (one search of the piece costs a fraction of a loop
 * over every field).
 */
export function hasOddSpaces(text: string): boolean {
  return A_BLANK.test(text);
}

/**
 * `text` with its no-break, narrow no-break, figure and thin spaces made plain spaces. Most cells
 * have none: a loop over their few characters finds that several times faster than the
 * expression's search, which ran for every cell of every row.
 */
export function plainSpaces(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // One comparison for most characters: every one of the four is at or above U+00A0.
    if (c < 0xa0) continue;
    if (c === 0xa0 || c === 0x202f || c === 0x2007 || c === 0x2009) return text.replace(BLANKS, " ");
  }
  return text;
}

const CURRENCY = String.raw`(?:[A-Za-z]{3}|[Ff][Tt]\.?|€|\$|£)`;
const PREFIXED = new RegExp(String.raw`^([-−+]?)\s*(${CURRENCY})\s*(.*)$`);
const SUFFIXED = new RegExp(String.raw`^(.*?)\s*(${CURRENCY})$`);

/** The amount cell without its currency word or symbol, and that currency as written. */
export function splitCurrency(raw: string): { text: string; currency: string | null } {
  const text = plainSpaces(raw).trim();
  // A digit first (after a sign or bracket) and a digit, bracket or dash last: no word to take off.
  if (NUMBER_FIRST.test(text) && NUMBER_LAST.test(text)) return { text, currency: null };
  return currencyAfterDigits(text) ?? splitByRules(text);
}

/** splitCurrency of a cell its spaces made plain and trimmed, by its two expressions. */
export function splitByRules(text: string): { text: string; currency: string | null } {
  const prefixed = PREFIXED.exec(text);
  if (prefixed && A_DIGIT.test(prefixed[3]!))
    return { text: `${prefixed[1]}${prefixed[3]}`.trim(), currency: prefixed[2]! };
  const suffixed = SUFFIXED.exec(text);
  if (suffixed && A_DIGIT.test(suffixed[1]!)) return { text: suffixed[1]!.trim(), currency: suffixed[2]! };
  return { text, currency: null };
}

function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** "Ft" in any case at `at` of `text`. */
function isFt(text: string, at: number): boolean {
  return (text.charCodeAt(at) | 0x20) === 0x66 && (text.charCodeAt(at + 1) | 0x20) === 0x74;
}

/**
 * What SUFFIXED takes off the commonest cells that end in a currency word ("8.919 Ft", "125,50
 * EUR"), without the expression: a digit first, then the word (three letters, or Ft with or
 * without its point) after a digit and any spaces. The expression's lazy first group leaves the
 * longest word and its spaces to the second, as this does. Undefined for anything else (a symbol,
 * a word after a letter or a sign): splitByRules reads those. Equal to splitByRules wherever it
 * answers (test/payments/read-amounts.test.ts compares the two).
 */
export function currencyAfterDigits(text: string): { text: string; currency: string } | undefined {
  const end = text.length;
  if (end < 3 || !isDigit(text.charCodeAt(0))) return undefined;
  let word: number;
  if (
    end >= 4 &&
    isLetter(text.charCodeAt(end - 3)) &&
    isLetter(text.charCodeAt(end - 2)) &&
    isLetter(text.charCodeAt(end - 1))
  )
    word = end - 3;
  else if (end >= 4 && text.charCodeAt(end - 1) === POINT && isFt(text, end - 3)) word = end - 3;
  else if (isFt(text, end - 2)) word = end - 2;
  else return undefined;
  let number = word;
  while (number > 0 && text.charCodeAt(number - 1) === SPACE) number--;
  if (number === 0 || !isDigit(text.charCodeAt(number - 1))) return undefined;
  return { text: text.slice(0, number), currency: text.slice(word) };
}

const GROUPS = /^\d{1,3}([ '’.,]\d{3})*$/;
// The patterns of the functions below, made once: a regular expression literal in a function is a
// new object each time it runs, and these run several times for every row of a batch. Those with
// the g flag only serve replace(), which starts them from the beginning every time.
const NUMBER_FIRST = /^[(+\-−]?\s*\d/;
const NUMBER_LAST = /[\d)-]$/;
const A_DIGIT = /\d/;
const DIGITS = /^\d+$/;
const SHORT_DIGITS = /^\d{1,15}$/;
const LEADING_ZEROS = /^0+(?=\d)/;
const TRAILING_ZEROS = /0+$/;
const NOT_ZERO = /[1-9]/;
const ZERO_FIRST = /^0/;
const BRACKETED = /^\((.*)\)$/;
const SIGNED = /^([-−+])\s*(.*)$/;
const DASHED = /^(.*\d)[.,]-{1,2}$/;
const NUMBER_BODY = /^\d[\d '’.,]*$/;
const MARKS_TOGETHER = /[ '’.,]{2}/;
const MARK_LAST = /[ '’.,]$/;
const POINTS = /[.,]/g;
const MARKS = /[ '’.,]/g;

/** The plain decimal of an integer part and a fraction (digits only), with the sign. */
function plain(negative: boolean, integer: string, fraction: string): string {
  const whole = integer.replace(LEADING_ZEROS, "");
  const frac = fraction.replace(TRAILING_ZEROS, "");
  const value = frac === "" ? whole : `${whole}.${frac}`;
  return negative && NOT_ZERO.test(value) ? `-${value}` : value;
}

/**
 * An amount cell (its currency word already taken off by `splitCurrency`) in `currency`, a
 * known ISO 4217 code; `shown` is the cell as messages quote it.
 */
export function readAmount(text: string, currency: string, shown = text): AmountReading {
  // Most cells of a large export are plain digits: no rule to apply.
  if (SHORT_DIGITS.test(text)) return { kind: "amount", amount: plain(false, text, "") };
  const common = commonAmount(text, currency);
  if (common !== undefined) return { kind: "amount", amount: common };
  return amountByRules(text, currency, shown);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
/** The marks commonAmount reads between digits: space, point and comma. */
const [SPACE, POINT, COMMA] = [0x20, 0x2e, 0x2c];
/** Longer cells are left to the rules (the scan below is for the amounts exports are full of). */
const COMMON_MAX = 40;

/**
 * What the rules make of the commonest written amounts, found in one pass over the characters
 * instead of a dozen expressions: digits grouped by spaces, points or commas, and a decimal part
 * after the other mark ("1 250 000", "1.250.000,50", "16838,50"). Undefined for anything else, and
 * for whatever the rules would refuse, call ambiguous or decide by the currency (one mark followed
 * by three digits): amountByRules reads those. Equal to amountByRules wherever it answers
 * (test/payments/read-amounts.test.ts compares the two).
 */
export function commonAmount(text: string, currency: string): string | undefined {
  const n = text.length;
  if (n < 2 || n > COMMON_MAX) return undefined;
  // Digit first and last, only digits, spaces, points and commas between, never two marks together.
  let lastPoint = -1;
  let lastComma = -1;
  let points = 0;
  let commas = 0;
  let previousMark = true;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) {
      previousMark = false;
      continue;
    }
    if (previousMark || (c !== SPACE && c !== POINT && c !== COMMA)) return undefined;
    previousMark = true;
    if (c === POINT) {
      lastPoint = i;
      points++;
    } else if (c === COMMA) {
      lastComma = i;
      commas++;
    }
  }
  if (previousMark) return undefined;
  // Where the decimal part starts (the rules: the later of two kinds of mark; one mark once, unless
  // three digits follow it), -1 for none.
  let at = -1;
  if (points > 0 && commas > 0) {
    at = Math.max(lastPoint, lastComma);
    if ((at === lastPoint ? points : commas) > 1) return undefined;
  } else if (points + commas === 1) {
    at = Math.max(lastPoint, lastComma);
    if (n - at - 1 === 3) return undefined;
  } else if (points + commas === 0 && text.indexOf(" ") < 0) return undefined;
  const integerEnd = at < 0 ? n : at;
  if (!groupedOrPlain(text, integerEnd)) return undefined;
  const fractionLength = at < 0 ? 0 : n - at - 1;
  for (let i = integerEnd + 1; i < n; i++) if (text.charCodeAt(i) === SPACE) return undefined;
  if (fractionLength > currencyDecimals(currency)) return undefined;
  const integer = text.slice(0, integerEnd).replace(MARKS, "");
  return plain(false, integer, at < 0 ? "" : text.slice(at + 1));
}

/** Whether text[0, end) is digits alone, or GROUPS' 1-3 digits then groups of a mark and three digits. */
function groupedOrPlain(text: string, end: number): boolean {
  let run = 0;
  let first = true;
  let marks = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) {
      run++;
      continue;
    }
    marks++;
    if (first ? run > 3 : run !== 3) return false;
    first = false;
    run = 0;
  }
  return marks === 0 || run === 3;
}

/** readAmount by its rules, for any cell. */
export function amountByRules(text: string, currency: string, shown = text): AmountReading {
  // Made only when needed: most cells are numbers, and a message per cell was most of this function's garbage.
  const notANumber = (): AmountReading => ({ kind: "problem", problem: `amount "${shown}" is not a number` });
  let body = plainSpaces(text).trim();
  let negative = false;
  const bracketed = BRACKETED.exec(body);
  if (bracketed) {
    negative = true;
    body = bracketed[1]!.trim();
  }
  const sign = SIGNED.exec(body);
  if (sign) {
    if (sign[1] !== "+") negative = !negative;
    body = sign[2]!;
  }
  // "1250,-" is a whole amount in Hungarian usage: the dash stands for "no fillér".
  const dashed = DASHED.exec(body);
  if (dashed) body = dashed[1]!;
  if (!NUMBER_BODY.test(body) || MARKS_TOGETHER.test(body) || MARK_LAST.test(body)) return notANumber();

  const lastPoint = body.lastIndexOf(".");
  const lastComma = body.lastIndexOf(",");
  let integer = body;
  let fraction = "";
  if (lastPoint >= 0 && lastComma >= 0) {
    const at = Math.max(lastPoint, lastComma);
    integer = body.slice(0, at);
    fraction = body.slice(at + 1);
    if (integer.includes(body[at]!)) return notANumber();
  } else if (lastPoint >= 0 || lastComma >= 0) {
    const at = Math.max(lastPoint, lastComma);
    const mark = body[at]!;
    const once = body.indexOf(mark) === at;
    const after = body.slice(at + 1);
    const before = body.slice(0, at);
    const couldGroup = after.length === 3 && GROUPS.test(before) && !ZERO_FIRST.test(before);
    if (once && !(couldGroup && (dashed || wholeInPractice(currency)))) {
      if (couldGroup && !/[ '’]/.test(before)) {
        const whole = `${before.replace(POINTS, "")}${after}`;
        const point = plain(false, before, after);
        return {
          kind: "ambiguous",
          problem: `amount "${shown}" is ambiguous in ${currency}: it could be ${whole} or ${point}; write ${whole} or ${whole}.00 for the first, ${point} for the second`,
        };
      }
      integer = before;
      fraction = after;
    }
  }
  if (!DIGITS.test(integer) && !GROUPS.test(integer)) return notANumber();
  if (fraction !== "" && !DIGITS.test(fraction)) return notANumber();
  if (dashed && fraction !== "") return notANumber();
  const decimals = currencyDecimals(currency);
  if (fraction.length > decimals) {
    return {
      kind: "problem",
      problem: `amount "${shown}" has ${fraction.length} decimal${fraction.length === 1 ? "" : "s"}; ${currency} has ${decimals}`,
    };
  }
  return { kind: "amount", amount: plain(negative, integer.replace(MARKS, ""), fraction) };
}

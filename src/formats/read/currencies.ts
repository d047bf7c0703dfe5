/**
 * Currencies as payment files write them (pure): codes in any case, Ft and the symbols, checked
 * against the ISO 4217 codes Intl knows, with their decimals. Read with the amounts (amounts.ts).
 */

const SYMBOLS: Record<string, string> = { FT: "HUF", "FT.": "HUF", "€": "EUR", $: "USD", "£": "GBP" };
const THREE_LETTERS = /^[A-Z]{3}$/;

let known: Set<string> | undefined;
function knownCurrencies(): Set<string> {
  known ??= new Set(Intl.supportedValuesOf("currency"));
  return known;
}

/** Minor units in ISO 4217 where Intl's display digits (CLDR) round them away. */
const ISO_DECIMALS: Record<string, number> = {
  HUF: 2,
  IDR: 2,
  PKR: 2,
  COP: 2,
  LBP: 2,
  IQD: 3,
  ALL: 2,
  MGA: 2,
  SYP: 2,
  YER: 2,
  LAK: 2,
  MMK: 2,
  SOS: 2,
  IRR: 2,
  KPW: 2,
  SLL: 2,
};

function displayDecimals(code: string): number {
  return new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions()
    .maximumFractionDigits as number;
}

const decimalsCache = new Map<string, number>();

/**
 * How many decimals an amount in `code` may have (its ISO 4217 minor unit: EUR 2, HUF 2, JPY 0).
 * Throws a RangeError for a code that is not a currency: every row with an amount has a known one.
 */
export function currencyDecimals(code: string): number {
  let decimals = decimalsCache.get(code);
  if (decimals === undefined) {
    if (!knownCurrencies().has(code)) throw new RangeError(`"${code}" is not a currency code`);
    decimals = ISO_DECIMALS[code] ?? displayDecimals(code);
    decimalsCache.set(code, decimals);
  }
  return decimals;
}

const wholeCache = new Map<string, boolean>();

/** Whether transfers in `code` are whole units in practice (HUF, JPY): Intl shows no decimals. */
export function wholeInPractice(code: string): boolean {
  let whole = wholeCache.get(code);
  if (whole === undefined) {
    whole = displayDecimals(code) === 0;
    wholeCache.set(code, whole);
  }
  return whole;
}

export type CurrencyReading = { ok: true; code: string } | { ok: false; problem: string };

const currencyReadings = new Map<string, CurrencyReading>();
let lastCurrency: { text: string; reading: CurrencyReading } | null = null;

/** A currency cell or word: "huf", "Ft" and "€" are read as HUF, HUF and EUR. */
export function readCurrency(text: string): CurrencyReading {
  // A file's rows mostly repeat the row before's currency: compared as text, it needs no lookup.
  if (lastCurrency !== null && text === lastCurrency.text) return lastCurrency.reading;
  let reading = currencyReadings.get(text);
  if (reading === undefined) {
    reading = currencyOf(text);
    // A file repeats a handful of currencies; the bound keeps a hostile one from growing the map.
    if (currencyReadings.size < 1000) currencyReadings.set(text, reading);
  }
  lastCurrency = { text, reading };
  return reading;
}

function currencyOf(text: string): CurrencyReading {
  const trimmed = text.trim();
  const upper = trimmed.toUpperCase();
  const code = SYMBOLS[upper] ?? upper;
  if (THREE_LETTERS.test(code) && knownCurrencies().has(code)) return { ok: true, code };
  return { ok: false, problem: `currency "${trimmed}" is not an ISO 4217 code (such as HUF or EUR)` };
}

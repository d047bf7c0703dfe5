/**
 * Totals of a payment batch per currency, exact: amounts are added as scaled integers (BigInt;
 * small ones first summed as whole numbers well inside a double's exact range), never as fractions, and shown with the currency's own decimals (HUF 2, JPY 0, per ISO
 * 4217), so "2499502.5" HUF prints as "2 499 502.50 HUF". Fed chunk by chunk (pure).
 */
import { currencyDecimals } from "../formats/read/amounts.ts";
import { PASSING, type Verdict } from "./verdicts.ts";

export interface CurrencyTotal {
  /** Upper-case code; "" for rows with an amount but no currency. */
  currency: string;
  /** Plain decimal with the currency's decimals ("2499502.50"). */
  amount: string;
  rows: number;
  /** The part of `amount` whose verdicts hold the payment. */
  held: string;
  heldRows: number;
  decimals: number;
}

interface Sum {
  units: bigint;
  heldUnits: bigint;
  /** Not yet in units/heldUnits: whole numbers of units, kept below PENDING_LIMIT. */
  pending: number;
  heldPending: number;
  scale: number;
  rows: number;
  heldRows: number;
}

/** Decimals to show for a currency: its minor unit, or what the amounts had for an unknown code. */
export function decimalsOf(currency: string, fallback = 2): number {
  try {
    return currency === "" ? fallback : currencyDecimals(currency);
  } catch {
    return fallback;
  }
}

/** Made once: a literal in scaled() would be a new object for every row. */
const SIGN = /^[-+]/;

/** A plain decimal string as an integer at `scale` fraction digits (extra digits cut). */
function scaled(amount: string, scale: number): bigint {
  const negative = amount.startsWith("-");
  const [whole = "0", fraction = ""] = amount.replace(SIGN, "").split(".");
  const units = BigInt(`${whole}${fraction.slice(0, scale).padEnd(scale, "0")}`);
  return negative ? -units : units;
}

/** Scaled amounts of at most this many digits are summed as numbers first (2 x 10^15 < 2^53). */
const NUMBER_DIGITS = 15;
const PENDING_LIMIT = 1e15;
const DIGITS = /^\d+$/;

/** scaled() as a number when it has at most NUMBER_DIGITS digits; null otherwise. */
function scaledNumber(amount: string, scale: number): number | null {
  const negative = amount.startsWith("-");
  const unsigned = negative || amount.startsWith("+") ? amount.slice(1) : amount;
  const point = unsigned.indexOf(".");
  const whole = point < 0 ? unsigned : unsigned.slice(0, point);
  const rest = point < 0 ? "" : unsigned.slice(point + 1);
  // scaled() reads only the part between the first and a second point.
  const second = rest.indexOf(".");
  const fraction = second < 0 ? rest : rest.slice(0, second);
  const digits = `${whole === "" ? "0" : whole}${fraction.slice(0, scale).padEnd(scale, "0")}`;
  if (digits.length > NUMBER_DIGITS || !DIGITS.test(digits)) return null;
  const units = Number(digits);
  return negative ? -units : units;
}

function settle(sum: Sum): void {
  if (sum.pending !== 0) sum.units += BigInt(sum.pending);
  if (sum.heldPending !== 0) sum.heldUnits += BigInt(sum.heldPending);
  sum.pending = 0;
  sum.heldPending = 0;
}

function plain(units: bigint, scale: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, "0");
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

export class BatchTotals {
  private readonly sums = new Map<string, Sum>();

  add(row: { amount: string | null; currency: string | null; verdict: Verdict }): void {
    if (row.amount === null) return;
    const currency = row.currency ?? "";
    let sum = this.sums.get(currency);
    if (!sum) {
      sum = {
        units: 0n,
        heldUnits: 0n,
        pending: 0,
        heldPending: 0,
        scale: decimalsOf(currency),
        rows: 0,
        heldRows: 0,
      };
      this.sums.set(currency, sum);
    }
    // The digits after the first point (up to a second one): what split(".")[1] held, without the array per row.
    const dot = row.amount.indexOf(".");
    const fraction = dot < 0 ? 0 : fractionEnd(row.amount, dot) - dot - 1;
    if (fraction > sum.scale) {
      // The reader refuses more decimals than a currency has; an unknown code may still bring them.
      settle(sum);
      const factor = 10n ** BigInt(fraction - sum.scale);
      sum.units *= factor;
      sum.heldUnits *= factor;
      sum.scale = fraction;
    }
    const held = !PASSING.has(row.verdict);
    sum.rows++;
    if (held) sum.heldRows++;
    const small = scaledNumber(row.amount, sum.scale);
    if (small !== null) {
      sum.pending += small;
      if (held) sum.heldPending += small;
      if (Math.abs(sum.pending) >= PENDING_LIMIT || Math.abs(sum.heldPending) >= PENDING_LIMIT) settle(sum);
      return;
    }
    const units = scaled(row.amount, sum.scale);
    sum.units += units;
    if (held) sum.heldUnits += units;
  }

  /** Every currency's total, by code. */
  list(): CurrencyTotal[] {
    for (const sum of this.sums.values()) settle(sum);
    return [...this.sums.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([currency, s]) => ({
        currency,
        amount: plain(s.units, s.scale),
        rows: s.rows,
        held: plain(s.heldUnits, s.scale),
        heldRows: s.heldRows,
        decimals: s.scale,
      }));
  }
}

const ONLY_DIGITS = /^\d+$/;

/** Digits in groups of three from the right, a space between: what the lookahead rule gives, without its cost per row. */
function groupDigits(digits: string): string {
  const head = digits.length % 3 || 3;
  let out = digits.slice(0, head);
  for (let at = head; at < digits.length; at += 3) out += ` ${digits.slice(at, at + 3)}`;
  return out;
}

/** A whole number's digits grouped by three, its sign kept. */
function groupWhole(whole: string): string {
  const sign = whole.startsWith("-") ? "-" : "";
  const unsigned = whole.replace("-", "");
  const digits = ONLY_DIGITS.test(unsigned)
    ? groupDigits(unsigned)
    : unsigned.replace(/\B(?=(\d{3})+$)/g, " ");
  return `${sign}${digits}`;
}

/**
 * Where the fraction after the first "." ends: at a second "." if any (split(".") kept only the
 * first two parts), else at the end. Found with indexOf rather than split: the text output
 * formats every row's amount, and the arrays were a good part of its garbage.
 */
function fractionEnd(amount: string, dot: number): number {
  const next = amount.indexOf(".", dot + 1);
  return next < 0 ? amount.length : next;
}

/** An amount for people: the currency's decimals, grouped, with its code ("2 499 502.50 HUF"). */
export function formatMoney(amount: string, currency: string): string {
  const dot = amount.indexOf(".");
  const whole = groupWhole(dot < 0 ? amount : amount.slice(0, dot));
  const fraction = dot < 0 ? "" : amount.slice(dot + 1, fractionEnd(amount, dot));
  const decimals = Math.max(decimalsOf(currency, fraction.length), fraction.length);
  const shown = decimals === 0 ? whole : `${whole}.${fraction.padEnd(decimals, "0")}`;
  return `${shown} ${currency || "(no currency)"}`;
}

/**
 * Reading a page's filters from its query string: each value checked once, every problem kept
 * with the parameter's name, so a page answers 400 naming all of them at once. Pure.
 */
import { isValidDate } from "../../dates.ts";

import { type Translator, translatorFor } from "../../i18n/messages.ts";

type Raw = Record<string, unknown>;

/** The values a query string gave a name: Fastify gives one string or, when repeated, an array. */
function rawValues(query: Raw, name: string): string[] {
  const value = query[name];
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((v): v is string => typeof v === "string").map((v) => v.trim());
}

export class QueryReader {
  readonly problems: string[] = [];

  constructor(
    private readonly query: Raw,
    private readonly i18n: Translator = translatorFor("en"),
  ) {}

  /** The first non-empty value, or null. */
  text(name: string): string | null {
    return rawValues(this.query, name).find((v) => v !== "") ?? null;
  }

  /** Every non-empty value, without repeats, in order. */
  texts(name: string): string[] {
    return [...new Set(rawValues(this.query, name).filter((v) => v !== ""))];
  }

  /** A YYYY-MM-DD calendar date, or null when absent; a problem when it is not one. */
  date(name: string): string | null {
    const value = this.text(name);
    if (value === null) return null;
    if (isValidDate(value)) return value;
    this.problems.push(this.i18n.t("query.notDate", { name, value }));
    return null;
  }

  /** One of `allowed`, or null when absent; a problem when it is another value. */
  choice<T extends string>(name: string, allowed: readonly T[]): T | null {
    const value = this.text(name);
    if (value === null) return null;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    this.problems.push(this.i18n.t("query.notChoice", { name, value, allowed: allowed.join(", ") }));
    return null;
  }

  /** A whole number from `min` to `max`, or `fallback` when absent; a problem when out of range. */
  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.text(name);
    if (value === null) return fallback;
    const n = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
    if (Number.isInteger(n) && n >= min && n <= max) return n;
    this.problems.push(this.i18n.t("query.notInteger", { name, value, min, max }));
    return fallback;
  }
}

export interface PageLinks {
  page: number;
  previous: string | null;
  next: string | null;
}

/**
 * Links to the previous and next page that keep every other parameter, so a filtered view can
 * be paged through, bookmarked and shared.
 */
export function pageLinks(path: string, query: Raw, page: number, hasMore: boolean): PageLinks {
  const at = (n: number) => {
    const params = new URLSearchParams();
    for (const name of Object.keys(query)) {
      if (name === "page") continue;
      for (const v of rawValues(query, name)) if (v !== "") params.append(name, v);
    }
    if (n > 1) params.set("page", String(n));
    const text = params.toString();
    return text === "" ? path : `${path}?${text}`;
  };
  return { page, previous: page > 1 ? at(page - 1) : null, next: hasMore ? at(page + 1) : null };
}

/** The rows of a page asked for with one extra row, and whether that extra row was there. */
export function splitPage<T>(rows: readonly T[], limit: number): { rows: T[]; hasMore: boolean } {
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

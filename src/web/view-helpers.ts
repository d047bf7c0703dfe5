/**
 * Small pure helpers every template receives as `it.h`: dates as people read them and links
 * that keep a page's filters in the query string.
 */
import { localDateTime } from "../dates.ts";

/** 2026-11-25 14:03 in the console's zone (the registry's days are Budapest days). */
export function dateTime(value: Date | string | null | undefined, timeZone = "Europe/Budapest"): string {
  if (value === null || value === undefined) return "";
  const instant = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(instant.getTime())) return String(value);
  const local = localDateTime(instant, timeZone);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${local.date} ${two(local.hour)}:${two(local.minute)}`;
}

/**
 * `base` with the given query parameters; empty values are left out, so a link built from a
 * page's filters stays short. Arrays repeat the parameter.
 */
export function withQuery(base: string, params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one === undefined || one === null || one === "") continue;
      search.append(key, String(one));
    }
  }
  const text = search.toString();
  return text ? `${base}?${text}` : base;
}

/** Nav sections that exist in every account: a switch of account lands on the same one. */
const SECTIONS = new Set(["changes", "payments", "coverage", "runs", "lists", "users", "rules"]);

/** The page a switch of account returns to: the path's section, else the inbox (ids differ by account). */
export function sectionOf(path: string): string {
  const first = path.split("/")[1] ?? "";
  return SECTIONS.has(first) ? `/${first}` : "/";
}

export const viewHelpers = (timeZone: string) => ({
  dateTime: (value: Date | string | null | undefined) => dateTime(value, timeZone),
  withQuery,
  sectionOf,
});

export type ViewHelpers = ReturnType<typeof viewHelpers>;

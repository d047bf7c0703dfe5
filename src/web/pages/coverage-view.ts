/**
 * The coverage calendar as data, pure: per list, weeks from Monday with each day's state, the
 * gaps between covered days and the windows invalid items hold open. Gaps and the days behind
 * come from the same arithmetic `regwatch status` uses (src/status/status-report.ts).
 */
import { addDays, toEpochDay } from "../../dates.ts";
import { type Formats, formatsFor } from "../../i18n/format.ts";
import { type Translator, translatorFor } from "../../i18n/messages.ts";
import { wordOf } from "../../i18n/words.ts";
import { listStatus } from "../../status/status-report.ts";
import type { ListCoverageDetail } from "../sql/coverage.ts";

export type DayState = "covered" | "accepted" | "invalid" | "gap" | "future" | "before";

/** The day states in the order the legend lists them. */
export const DAY_STATES: readonly DayState[] = ["covered", "accepted", "invalid", "gap", "future", "before"];

/**
 * Each state's mark, shown in its cells and the legend beside the colour, so the calendar reads
 * without telling colours apart (WCAG 1.4.1); screen readers get the state in words instead.
 */
export const DAY_MARKS: Readonly<Record<DayState, string>> = {
  covered: "✓",
  accepted: "✎",
  invalid: "!",
  gap: "✗",
  future: "·",
  before: "–",
};

/** The reader's words and formats (English, UTC by default). */
interface Words {
  i18n: Translator;
  formats: Formats;
}

export interface CalendarDay {
  day: string;
  state: DayState;
  /** What the day's cell says when pointed at: the state in words and, where known, why. */
  title: string;
  /** The state's mark (DAY_MARKS) and its words, for a reader who does not see the colour. */
  mark: string;
  words: string;
}

export interface CalendarWeek {
  monday: string;
  /** The month's name when the week holds its first day (or is the first week shown). */
  monthLabel: string | null;
  days: CalendarDay[];
}

export interface ListCalendar {
  listKey: string;
  listName: string;
  deleted: boolean;
  createdAt: string | null;
  firstCovered: string | null;
  lastCovered: string | null;
  coveredDays: number;
  behindDays: number | null;
  gaps: { start: string; end: string; days: number }[];
  invalid: ListCoverageDetail["invalid"];
  accepted: { start: string; end: string; reason: string }[];
  weeks: CalendarWeek[];
}

/** The Monday of the week `weeks - 1` weeks before the week of `today`. */
export function firstMonday(today: string, weeks: number): string {
  // 1970-01-01 was a Thursday: epoch day + 3 modulo 7 counts days since Monday.
  const sinceMonday = (((toEpochDay(today) + 3) % 7) + 7) % 7;
  return addDays(today, -sinceMonday - (weeks - 1) * 7);
}

export function listCalendar(
  list: ListCoverageDetail,
  options: { lastComplete: string; today: string; weeks: number; end?: string; words?: Words },
): ListCalendar {
  const words = options.words ?? { i18n: translatorFor("en"), formats: formatsFor("en", "UTC") };
  const status = listStatus(
    {
      listKey: list.listKey,
      listName: list.listName,
      createdAt: list.createdAt,
      deleted: list.deleted,
      intervals: list.intervals.map(({ start, end }) => ({ start, end })),
    },
    options.lastComplete,
    options.today,
  );
  // The calendar ends with the week of `end` (today unless an earlier stretch is asked for).
  const from = firstMonday(options.end ?? options.today, options.weeks);
  const weeks: CalendarWeek[] = [];
  for (let w = 0; w < options.weeks; w++) {
    const monday = addDays(from, w * 7);
    const days: CalendarDay[] = [];
    let monthLabel: string | null = null;
    for (let d = 0; d < 7; d++) {
      const day = addDays(monday, d);
      if (w === 0 ? d === 0 : day.endsWith("-01")) monthLabel = words.formats.month(day);
      days.push(dayOf(list, day, options.lastComplete, words));
    }
    weeks.push({ monday, monthLabel, days });
  }
  return {
    listKey: list.listKey,
    listName: list.listName,
    deleted: list.deleted,
    createdAt: list.createdAt,
    firstCovered: status.firstCovered,
    lastCovered: status.lastCovered,
    coveredDays: status.coveredDays,
    behindDays: status.behindDays,
    gaps: status.gaps,
    invalid: list.invalid,
    accepted: list.intervals
      .filter((i) => i.acceptedReason !== null)
      .map((i) => ({ start: i.start, end: i.end, reason: i.acceptedReason! })),
    weeks,
  };
}

/** One day's state: an open invalid window first (its days are not covered), then what covers it. */
function dayOf(list: ListCoverageDetail, day: string, lastComplete: string, words: Words): CalendarDay {
  const { i18n } = words;
  const shown = words.formats.day(day);
  const marked = (state: DayState, title: string): CalendarDay => ({
    day,
    state,
    title,
    mark: DAY_MARKS[state],
    words: wordOf(i18n, "dayState", state),
  });
  const plain = (state: DayState): CalendarDay =>
    marked(state, i18n.t("coverage.dayTitle", { day: shown, state: wordOf(i18n, "dayState", state) }));
  const invalid = list.invalid.find((w) => w.start <= day && day <= w.end);
  if (invalid) {
    const state = wordOf(i18n, "dayState", "invalid");
    const title = i18n.t("coverage.dayInvalid", {
      day: shown,
      state,
      items: invalid.items,
      example: invalid.example,
    });
    return marked("invalid", title);
  }
  const covering = list.intervals.filter((i) => i.start <= day && day <= i.end);
  if (covering.some((i) => i.acceptedReason === null)) return plain("covered");
  const accepted = covering.find((i) => i.acceptedReason !== null);
  if (accepted) {
    const title = i18n.t("coverage.dayAccepted", { day: shown, reason: accepted.acceptedReason });
    return marked("accepted", title);
  }
  if (day > lastComplete) return plain("future");
  if (list.createdAt !== null && day < list.createdAt) return plain("before");
  return plain("gap");
}

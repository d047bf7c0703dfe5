/**
 * The most pages regwatch follows in one request series (a changes window, a search with --all).
 * A registry that answers `has_next: true` forever would otherwise be asked until stopped.
 */
import { ApiError } from "./errors.ts";

/**
 * The document names no page size ("results per page: not shown"); the smallest seen is 10 (the
 * bundled emulator's search pages). A list holds at most 2000 items and a week of their changes
 * is a few each, so 1,000 pages of 10 (10,000 records) leave room for any real series; an endless
 * one costs at most 1,000 requests, about 33 s of the key's 30 a second, before it ends.
 */
export const MAX_SERIES_PAGES = 1_000;

/** The series past its bound: failed as a whole, nothing of it taken. */
export function tooManyPages(endpoint: string, bound: number, consequence: string): ApiError {
  return new ApiError(
    "TOO_MANY_PAGES",
    `${endpoint}: the registry still said has_next after ${bound} pages, the most regwatch follows ` +
      `in one series (MAX_SERIES_PAGES); ${consequence}`,
    { endpoint },
  );
}

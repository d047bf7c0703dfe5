/**
 * /changes pages by keyset: a page is asked for with one row more than it shows, on one side of
 * a row's key, and its links carry the keys of its first and last rows. Newer pages end before
 * the first row shown, older ones start after the last; "newest" and "oldest" are the two ends.
 * Pure: the rows come from src/changes/sql/change-feed.ts (feedPage).
 */
import type { FeedKey, FeedRow, FeedSlice } from "../../changes/sql/change-feed.ts";
import { encodeCursor } from "./changes-cursor.ts";

type Raw = Record<string, unknown>;

/** The parameters that name a page, or a download's audience (the rest are the filter, kept by every link). */
const PLACE = new Set(["after", "before", "last", "page", "format"]);

export interface ChangesPage {
  rows: FeedRow[];
  /** Cursor of the page of newer rows (ends before this page's first row); null at the newest end. */
  newer: string | null;
  /** Cursor of the page of older rows (starts after this page's last row); null at the oldest end. */
  older: string | null;
}

/**
 * What a fetch of `size + 1` rows on `position`'s side shows, and where its neighbours are. The
 * extra row, when there, lies beyond the page on the side read towards: the feed goes on there.
 * Towards the other side the feed goes on whenever a key was given (that row, at least).
 */
export function pageOf(
  found: { rows: FeedRow[]; keys: FeedKey[] },
  position: Omit<FeedSlice, "limit">,
  size: number,
): ChangesPage {
  const more = found.rows.length > size;
  const from = position.side === "before" && more ? found.rows.length - size : 0;
  const rows = found.rows.slice(from, from + size);
  const keys = found.keys.slice(from, from + size);
  const first = keys[0];
  const last = keys[keys.length - 1];
  const given = position.key;
  // An empty page past an end (a link followed after rows went away) still leads back from its key.
  const back = (edge: FeedKey | undefined) => encodeCursor(edge ?? given!);
  if (position.side === "after") {
    return { rows, newer: given ? back(first) : null, older: more && last ? encodeCursor(last) : null };
  }
  return { rows, newer: more && first ? encodeCursor(first) : null, older: given ? back(last) : null };
}

/** The filter's parameters as the query gave them, without any that names a page. */
export function filtersOf(query: Raw): Raw {
  return Object.fromEntries(Object.entries(query).filter(([name]) => !PLACE.has(name)));
}

export interface ChangesLinks {
  newest: string | null;
  newer: string | null;
  older: string | null;
  oldest: string | null;
}

export function changesLinks(filters: Raw, page: ChangesPage): ChangesLinks {
  const at = (place: Record<string, string>) => {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(filters)) {
      for (const v of Array.isArray(value) ? value : [value]) {
        if (typeof v === "string" && v.trim() !== "") params.append(name, v.trim());
      }
    }
    for (const [name, value] of Object.entries(place)) params.set(name, value);
    const text = params.toString();
    return text === "" ? "/changes" : `/changes?${text}`;
  };
  return {
    newest: page.newer === null ? null : at({}),
    newer: page.newer === null ? null : at({ before: page.newer }),
    older: page.older === null ? null : at({ after: page.older }),
    oldest: page.older === null ? null : at({ last: "1" }),
  };
}

/**
 * How a value removed under the retention policy reads (src/retention/): the JSON marker where a
 * column holds JSON, the text marker where it holds text. Every reader (the change feed, the
 * console, alert texts, BI through the views) sees "removed", never "missing".
 */

/** The text a removed name or reply reads as, where a column holds text. */
export const REMOVED_TEXT = "(removed under retention policy)";

/** The JSON a removed value reads as, where a column holds JSON. */
export interface RemovedMarker {
  removed: "retention";
  /** The day it was removed (YYYY-MM-DD). */
  on: string;
}

/** The marker when `value` is one (JSON or text); else undefined. */
export function removedMarkerOf(value: unknown): { on: string | undefined } | undefined {
  if (value === REMOVED_TEXT) return { on: undefined };
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const marker = value as Partial<RemovedMarker>;
  if (marker.removed !== "retention") return undefined;
  return { on: typeof marker.on === "string" ? marker.on : undefined };
}

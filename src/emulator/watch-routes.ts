/** The watch interface (v2): lists, bulk item operations, and the changes of a list's items. */
import { daysBetween, isValidDate, maxDate, minDate } from "../dates.ts";
import { type Change, changedItem } from "./changes.ts";
import { activationDate, lastLoadedDay } from "./clock.ts";
import { queryValidationError } from "./description.ts";
import type { Registry } from "./registry.ts";
import { failure, json, parseObjectBody, type Reply } from "./reply.ts";
import { listView, type WatchList } from "./watch-lists.ts";

/** Longest interval one changes request may cover, in days, both ends included. */
export const MAX_INTERVAL_DAYS = 7;
const MAX_LIST_NAME = 255;

export interface WatchRequest {
  endpoint: string;
  listKey?: string;
  query: Record<string, string>;
  body: string;
}

export function watchReply(req: WatchRequest, registry: Registry): Reply {
  if (req.endpoint === "GET /v2/lists") {
    return json(200, {
      watch_lists: registry.lists.all().map(listView),
      total_watch_count: registry.lists.totalWatched(),
    });
  }
  if (req.endpoint === "POST /v2/lists") {
    const name = listName(req.body);
    if (typeof name !== "string") return name;
    return json(201, listView(registry.lists.create(name, registry.today())));
  }
  const list = req.listKey === undefined ? undefined : registry.lists.get(req.listKey);
  if (!list) return failure(404, `no watch list with key ${req.listKey ?? ""}`);
  switch (req.endpoint) {
    case "GET /v2/lists/:key":
      return json(200, listView(list));
    case "DELETE /v2/lists/:key": {
      const name = listName(req.body);
      if (typeof name !== "string") return name;
      if (name !== list.list_name) return failure(400, "list_name does not match the list's name");
      registry.lists.delete(list.list_key);
      return { status: 204 };
    }
    case "GET /v2/lists/:key/items":
      return json(200, {
        watched_items: [...list.items.values()].map(({ added_at, tax_id }) => ({ added_at, tax_id })),
      });
    case "POST /v2/lists/:key/items":
    case "DELETE /v2/lists/:key/items": {
      const taxIds = bulkTaxIds(req.body);
      if (!Array.isArray(taxIds)) return taxIds;
      if (req.endpoint.startsWith("DELETE")) return json(200, registry.lists.remove(list, taxIds));
      const now = registry.clock.now();
      return json(200, registry.lists.add(list, taxIds, registry.today(), activationDate(now)));
    }
    case "GET /v2/lists/:key/changes":
      return changesReply(list, req.query, registry);
    default:
      return failure(404, `no such endpoint: ${req.endpoint}`);
  }
}

function listName(body: string): string | Reply {
  const parsed = parseObjectBody(body);
  if (typeof parsed === "string") return failure(400, parsed);
  const name = parsed.list_name;
  if (typeof name !== "string" || name.trim() === "" || name.length > MAX_LIST_NAME) {
    return failure(400, `list_name must be a non-empty string of at most ${MAX_LIST_NAME} characters`);
  }
  return name;
}

function bulkTaxIds(body: string): string[] | Reply {
  const parsed = parseObjectBody(body);
  if (typeof parsed === "string") return failure(400, parsed);
  const taxIds = parsed.tax_ids;
  if (!Array.isArray(taxIds) || !taxIds.every((t) => typeof t === "string")) {
    return failure(400, "tax_ids must be an array of strings");
  }
  return taxIds as string[];
}

/**
 * The interval a changes request asks for, or the answer that refuses it: a missing or malformed
 * date is FastAPI's 422 naming the parameter (the framework checks parameters before the handler
 * runs); a reversed or too long interval is the handler's own 400.
 */
export function parseInterval(
  query: Record<string, string>,
  fromParam: string,
  toParam: string,
): { from: string; to: string } | Reply {
  const from = query[fromParam];
  const to = query[toParam];
  const invalid = [
    { name: fromParam, value: from },
    { name: toParam, value: to },
  ].filter((p) => p.value === undefined || !isValidDate(p.value));
  if (invalid.length > 0 || from === undefined || to === undefined)
    return json(422, queryValidationError(invalid));
  if (to < from) return failure(400, `${toParam} must not be before ${fromParam}`);
  if (daysBetween(from, to) + 1 > MAX_INTERVAL_DAYS) {
    return failure(400, `the interval may cover at most ${MAX_INTERVAL_DAYS} days, both ends included`);
  }
  return { from, to };
}

function changesReply(list: WatchList, query: Record<string, string>, registry: Registry): Reply {
  const { changesFromParam, changesToParam } = registry.settings;
  const interval = parseInterval(query, changesFromParam, changesToParam);
  if ("status" in interval) return interval;
  const lastLoaded = lastLoadedDay(registry.clock.now());
  if (interval.from > lastLoaded) {
    return failure(422, `no data is loaded for ${interval.from} yet; the last loaded day is ${lastLoaded}`);
  }
  // The answer covers only loaded days and says so in end_date.
  const end = minDate(interval.to, lastLoaded);
  const found: Change[] = [];
  for (const item of list.items.values()) {
    const start = maxDate(interval.from, item.active_from);
    if (start > end) continue;
    const business = registry.directory.byTaxId(item.tax_id);
    if (business) found.push(...registry.history.between(business, start, end));
  }
  found.sort((a, b) =>
    a.date !== b.date
      ? a.date < b.date
        ? -1
        : 1
      : a.tax_id !== b.tax_id
        ? a.tax_id < b.tax_id
          ? -1
          : 1
        : a.seq - b.seq,
  );
  return json(200, {
    start_date: interval.from,
    end_date: end,
    changed_items: found.map((change) => changedItem(change, registry.fileBaseUrl)),
  });
}

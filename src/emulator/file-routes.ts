/** Change files: the JSON document each change's `path` points to. No API key is needed. */
import { parseChangeFilePath } from "./changes.ts";
import { lastLoadedDay } from "./clock.ts";
import type { Registry } from "./registry.ts";
import { failure, json, type Reply } from "./reply.ts";

/** Answers `GET {fileBaseUrl}/<date>/<business_form>/<file_name>`; `relative` is the part after the base. */
export function fileReply(relative: string, registry: Registry): Reply {
  const parts = parseChangeFilePath(relative);
  if (!parts) return failure(404, "no such change file");
  const business = registry.directory.byTaxId(parts.taxId);
  // A file exists only for a change of a loaded day, under its business's own form.
  if (!business || business.type !== parts.type || parts.date > lastLoadedDay(registry.clock.now())) {
    return failure(404, "no such change file");
  }
  const change = registry.history.find(business, parts.date, parts.seq);
  if (!change) return failure(404, "no such change file");
  return json(200, registry.history.fileContent(business, change));
}

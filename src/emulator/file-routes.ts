/** Change files: the JSON document each change's `path` points to. No API key is needed. */
import { parseChangeFilePath } from "./changes.ts";
import { lastLoadedDay } from "./clock.ts";
import type { Registry } from "./registry.ts";
import { failure, json, type Reply } from "./reply.ts";

/** Answers `GET {fileBaseUrl}/<date>/<business_form>/<file_name>`; `relative` is the part after the base. */
export function fileReply(relative: string, registry: Registry): Reply {
  const parts = parseChangeFilePath(relative);
  // A file exists only for a change of a loaded day.
  if (!parts || parts.date > lastLoadedDay(registry.clock.now())) return failure(404, "no such change file");
  if (parts.kind === "shared") {
    const content = registry.sharedFiles.content(parts.type, parts.date);
    return content ? json(200, content) : failure(404, "no such change file");
  }
  const business = registry.directory.byTaxId(parts.taxId);
  // A file of its own lives under its business's own form.
  if (!business || business.type !== parts.type) return failure(404, "no such change file");
  const change = registry.history.find(business, parts.date, parts.seq);
  if (!change) return failure(404, "no such change file");
  // A layout no reader of the registry's files knows: the file is there, its values are not readable.
  if (change.unreadable)
    return json(200, { format: "emulator-unreadable", date: change.date, payload: "AAECAwQ=" });
  return json(200, {
    tax_id: change.tax_id,
    business_form: change.type,
    date: change.date,
    chapter: change.chapter,
    changed_headings: change.headings,
    changes: registry.values.entries(business, change),
  });
}

/**
 * Shapes of the watch interface's responses (docs/registry.md, "Watch interface"). Objects are loose: fields
 * the document does not name are kept, so nothing the registry sends is lost.
 */
import * as z from "zod";

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD");

export const watchListSchema = z.looseObject({
  list_key: z.union([z.string().min(1), z.number()]).transform(String),
  list_name: z.string(),
  created_at: isoDate.nullish(),
  watch_count: z.number().int().nullish(),
});
export type WatchList = z.output<typeof watchListSchema>;

export const listsResponseSchema = z.looseObject({
  watch_lists: z.array(watchListSchema),
  total_watch_count: z.number().int().nullish(),
});

export const watchedItemSchema = z.looseObject({
  tax_id: z.string().min(1),
  added_at: isoDate.nullish(),
});
export const itemsResponseSchema = z.looseObject({ watched_items: z.array(watchedItemSchema) });
export type WatchedItem = z.output<typeof watchedItemSchema>;

export const bulkResultSchema = z.looseObject({
  success: z.array(z.string()),
  failed: z.array(z.looseObject({ tax_id: z.string(), code: z.number().int() })),
});
export type BulkResult = z.output<typeof bulkResultSchema>;

export const changedItemSchema = z.looseObject({
  change: isoDate,
  tax_id: z.string().min(1),
  chapter: z.union([z.string(), z.number()]).transform(String),
  changed_headings: z
    .array(z.string())
    .nullish()
    .transform((h) => h ?? []),
  path: z.string().min(1),
});
export type ChangedItem = z.output<typeof changedItemSchema>;

export const changesResponseSchema = z.looseObject({
  start_date: isoDate,
  end_date: isoDate,
  changed_items: z.array(z.unknown()),
  /** Pagination, which the document says applies to every endpoint (its page size is unnamed). */
  has_next: z.boolean().nullish(),
});

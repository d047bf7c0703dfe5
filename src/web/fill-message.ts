/**
 * Fills a whole-sentence message's `{name}` placeholders: the console's own messages are written
 * as complete sentences (never assembled from fragments) so that they can move into translation
 * catalogs as they are. A placeholder without a value stays visible, so a mistake shows.
 */
export function fill(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/**
 * Fills a whole-sentence message's `{name}` placeholders with values that may be markup
 * (`<strong>3</strong>`): the console's own messages are written as complete sentences (never
 * assembled from fragments). Only for sentences without a count: a sentence with a count has its
 * plural forms in the catalog (ICU `{count, plural, ...}`) and is said through the translator
 * (`it.t`, intl-messageformat), which chooses the form. A placeholder without a value stays
 * visible, so a mistake shows.
 */
export function fill(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/**
 * A heading typed by a person, as its key (pure): the key itself, or the heading's name in either
 * language ("Működési állapot", "status", "Bank accounts"), case and spacing aside. The
 * registry's own headings win where two keys share a name (`status` over `status_code`).
 */
import { REGISTRY_HEADINGS } from "../changes/headings.ts";
import { vocabulary as en } from "./catalogs/en/vocabulary.ts";
import { vocabulary as hu } from "./catalogs/hu/vocabulary.ts";

const fold = (text: string) => text.normalize("NFC").trim().replace(/\s+/g, " ").toLocaleLowerCase("hu");

const PREFIX = "heading.";

/** Every heading the catalogs name, the registry's first. */
const KEYS: readonly string[] = [
  ...REGISTRY_HEADINGS,
  ...Object.keys(en)
    .filter((k) => k.startsWith(PREFIX))
    .map((k) => k.slice(PREFIX.length))
    .filter((k) => !REGISTRY_HEADINGS.includes(k)),
];

const BY_NAME = new Map<string, string>();
for (const key of KEYS) {
  const id = `${PREFIX}${key}`;
  for (const name of [key, (en as Record<string, string>)[id], (hu as Record<string, string>)[id]]) {
    if (name !== undefined && !BY_NAME.has(fold(name))) BY_NAME.set(fold(name), key);
  }
}

/** The key `typed` names (a key or a heading's name in English or Hungarian); undefined when none. */
export function headingKeyOf(typed: string): string | undefined {
  return BY_NAME.get(fold(typed));
}

/**
 * A business's name as people read it (pure): the registry's own name when one is known, else the
 * newest name a person or a file gave, saying where it came from, else that the name is unknown.
 * The sentences are whole, with placeholders, for the message catalogues.
 */
import { NAME_UNKNOWN } from "./format.ts";

/** User-visible sentences of this module ({name}, {file}, {user} are filled in). */
export const GIVEN_NAME_TEXT = {
  fromFile: "{name} (as given in {file})",
  fromUser: "{name} (as given by {user})",
  earlier: "{name} (as given earlier; the source was not recorded)",
} as const;

export interface GivenNameLike {
  name: string;
  source: string;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/** Says one of the sentences above with its values: English for the CLI, the reader's language in the console. */
export type GivenNameSay = (kind: keyof typeof GIVEN_NAME_TEXT, values: Record<string, string>) => string;

const english: GivenNameSay = (kind, values) => fill(GIVEN_NAME_TEXT[kind], values);

/** "Első Kft. (as given in supplier-master.csv)", from a source written `file X`, `user X` or `earlier`. */
export function givenNameLabel(given: GivenNameLike, say: GivenNameSay = english): string {
  const name = given.name.trim();
  if (given.source.startsWith("file ")) return say("fromFile", { name, file: given.source.slice(5) });
  if (given.source.startsWith("user ")) return say("fromUser", { name, user: given.source.slice(5) });
  return say("earlier", { name });
}

/** The registry's name, else the given one marked as given, else NAME_UNKNOWN. */
export function shownName(registryName: string | null | undefined, given: GivenNameLike | undefined): string {
  const known = registryName?.trim();
  if (known) return known;
  return given ? givenNameLabel(given) : NAME_UNKNOWN;
}

/** The source a file gives its names under: `file <base name>`. */
export function fileSource(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return `file ${base}`;
}

/** The source a person gives a name under: `user <who>`. */
export function userSource(who: string): string {
  return `user ${who}`;
}

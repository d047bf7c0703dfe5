/**
 * A name a person or a file gave a business, as people read it (pure): the name and where it came
 * from, shown where the registry has not named the business. The sentences are whole, with
 * placeholders, for the message catalogues.
 */

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

/** The source a file gives its names under: `file <base name>`. */
export function fileSource(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? fileName;
  return `file ${base}`;
}

/** The source a person gives a name under: `user <who>`. */
export function userSource(who: string): string {
  return `user ${who}`;
}

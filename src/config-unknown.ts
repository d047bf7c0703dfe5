/**
 * `REGWATCH_*` variables that regwatch does not read: a misspelt setting (`REGWATCH_WATCHURL`) is
 * otherwise ignored without a word. Pure: every command warns of them once on stderr, and
 * `doctor` lists them among its configuration checks.
 */
import { ENV } from "./config-schema.ts";

export interface UnknownVariable {
  name: string;
  /** The known variable within two edits of it, when there is one. */
  near?: string;
}

/**
 * The unknown `REGWATCH_*` names of `env`, sorted, each with its nearest known name. An accounts
 * file may not name such a variable for a key (only REGWATCH_API_KEY and REGWATCH_SEARCH_API_KEY,
 * which are known), so every other one is a setting nobody reads.
 */
export function unknownVariables(env: NodeJS.ProcessEnv): UnknownVariable[] {
  const known = new Set(Object.keys(ENV));
  return Object.keys(env)
    .filter((n) => n.startsWith("REGWATCH_") && !known.has(n))
    .sort()
    .map((name) => {
      const near = closest(name, known);
      return near ? { name, near } : { name };
    });
}

/** One sentence for an unknown variable, the same in a command's warning and in doctor. */
export function unknownVariableText(v: UnknownVariable): string {
  return `${v.name} is not a variable regwatch reads${v.near ? ` (did you mean ${v.near}?)` : ""}; it is ignored`;
}

/** A known name within two edits of `name`, if any (the nearest). */
function closest(name: string, known: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

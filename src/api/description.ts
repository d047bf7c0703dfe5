/**
 * The registry's own description of its watch interface (an OpenAPI document, linked from
 * `{watch_base_url}/docs`), read for what its document leaves out: the names of the changes
 * operation's interval parameters, its page parameter, a date format and whether the interval's
 * end is inclusive.
 *
 * Agreed interface (used by `regwatch doctor` and by the runs):
 * - `readDescription(http, watchBase)` fetches and reads the description through the paced watch
 *   client (rate budget, never the search quota); it never throws for a missing or bad document,
 *   it answers `absent` (nothing served at any place tried) or `unreadable` (something served that
 *   is not a usable description), with every address tried and the problem in words.
 * - `compareWithSettings(found, settings)` gives one message per contradiction between a value set
 *   in the environment and the description ([] when none).
 * - Which settings were set in the environment: `config.explicit`, the set of variable names that
 *   were given a non-empty value (e.g. `config.explicit.has("REGWATCH_CHANGES_FROM_PARAM")`); a
 *   variable not in it carries its default, which the description may replace.
 * - The stored row, in src/sync/sql/descriptions.ts (table registry_descriptions, one row per watch
 *   address, reread at most daily): `loadDescription(sql, watchUrl?)` (without an address: the row
 *   read last) and `saveDescription(sql, outcome, { watchUrl, readOn })`.
 */
import type { ChangesParams, DescriptionOutcome } from "./description-outcome.ts";
import { discoverDescription } from "./description-read.ts";
import type { HttpClient } from "./http.ts";

export type { ChangesParams, DescriptionOutcome };

/** The settings a description is compared with: each field present only when set in the environment. */
export interface ChangesSettings {
  from?: string;
  to?: string;
  page?: string;
  endInclusive?: boolean;
}

export async function readDescription(
  http: HttpClient,
  watchBase: URL | string,
  options: { signal?: AbortSignal; today?: string; timeMs?: number } = {},
): Promise<DescriptionOutcome> {
  return discoverDescription(http, watchBase, options);
}

/** One message per contradiction between a value set in the environment and the description. */
export function compareWithSettings(found: ChangesParams, settings: ChangesSettings): string[] {
  const problems: string[] = [];
  const names: [keyof ChangesSettings & ("from" | "to" | "page"), string][] = [
    ["from", "REGWATCH_CHANGES_FROM_PARAM"],
    ["to", "REGWATCH_CHANGES_TO_PARAM"],
    ["page", "REGWATCH_CHANGES_PAGE_PARAM"],
  ];
  for (const [field, variable] of names) {
    const set = settings[field];
    const described = found[field];
    if (set === undefined || described === undefined || set === described) continue;
    problems.push(
      `${variable} is ${JSON.stringify(set)} but the registry's description names the changes ` +
        `parameter ${JSON.stringify(described)}; the environment's value is used`,
    );
  }
  if (
    settings.endInclusive !== undefined &&
    found.endInclusive !== undefined &&
    settings.endInclusive !== found.endInclusive
  ) {
    problems.push(
      `REGWATCH_CHANGES_END_INCLUSIVE is ${settings.endInclusive} but the registry's description says ` +
        `the interval's end is ${found.endInclusive ? "inclusive" : "exclusive"}; the environment's value is used`,
    );
  }
  return problems;
}

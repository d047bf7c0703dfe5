/**
 * Spends the planned searches (name-plan.ts) one by one, keeping every record each answer holds,
 * and says which businesses got their name. A record can name a business planned later (two
 * businesses given the same name): that business's own search is then not spent. The first
 * failure ends the run (a spent quota, an unreachable registry): what was found until then is
 * kept, and the rest is left for another time rather than paid for with failing requests.
 */
import type { BusinessRecord } from "../api/search-schemas.ts";
import { taxBaseOf } from "../taxid.ts";
import type { NameSearch } from "./name-plan.ts";

export interface NamingRun {
  /** One request of the quota; the answer's records. */
  search(kind: NameSearch["kind"], value: string): Promise<readonly BusinessRecord[]>;
  /** Keeps the records (businesses and the profiles they feed). */
  save(records: readonly BusinessRecord[]): Promise<void>;
}

export interface NamingOutcome {
  /** Searches the registry answered. */
  answered: number;
  named: string[];
  /** Searched, but no record of the answer was the business. */
  missed: string[];
  /** Not searched: the run ended first. */
  left: string[];
  /** Why the run ended early, if it did. */
  stopped: unknown;
}

export async function nameUnnamed(searches: readonly NameSearch[], run: NamingRun): Promise<NamingOutcome> {
  const wanted = new Set(searches.map((s) => s.taxId));
  const named = new Set<string>();
  const missed: string[] = [];
  let answered = 0;
  let index = 0;
  let stopped: unknown;
  for (; index < searches.length; index++) {
    const planned = searches[index]!;
    if (named.has(planned.taxId)) continue;
    let records: readonly BusinessRecord[];
    try {
      records = await run.search(planned.kind, planned.value);
      answered++;
      await run.save(records);
    } catch (error) {
      stopped = error;
      break;
    }
    for (const record of records) {
      const base = record.tax_number ? taxBaseOf(record.tax_number) : undefined;
      if (base && wanted.has(base) && nameOf(record)) named.add(base);
    }
    if (!named.has(planned.taxId)) missed.push(planned.taxId);
  }
  const left = searches.slice(index).flatMap((s) => (named.has(s.taxId) ? [] : [s.taxId]));
  // A business missed by its own search may have been named by a later one's records.
  return { answered, named: [...named], missed: missed.filter((t) => !named.has(t)), left, stopped };
}

function nameOf(record: BusinessRecord): string | undefined {
  return record.full_name?.trim() || record.short_name?.trim() || undefined;
}

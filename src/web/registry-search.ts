/**
 * The registry's search as the console spends it: how many requests this month's quota still
 * allows (shown before one is spent), and one search, first page only, whose records are kept
 * as `regwatch lookup` keeps them (businesses and the profiles they feed); or a series of them
 * on one client, to name the unnamed watched businesses.
 */
import type { SearchKind } from "../api/search-query.ts";
import type { BusinessRecord } from "../api/search-schemas.ts";
import { requireSearch } from "../config.ts";
import { RegwatchError } from "../errors.ts";
import type { Translator } from "../i18n/messages.ts";
import { saveBusinesses } from "../parse/save-businesses.ts";
import { openSearch } from "../run/open-registry.ts";
import { searchRequestsThisMonth } from "../run/usage.ts";
import type { NameSearch } from "../search/name-plan.ts";
import { type NamingOutcome, nameUnnamed } from "../search/name-unnamed.ts";
import { redactError } from "../secrets.ts";
import type { WebDeps } from "./kit.ts";

export interface Allowance {
  configured: boolean;
  remaining: number;
  limit: number;
  /** The sentence to show before a search is spent. */
  text: string;
}

export async function searchAllowance(deps: WebDeps, i18n: Translator): Promise<Allowance> {
  const { config } = deps;
  const configured = Boolean(config.searchUrl && config.searchApiKey);
  const limit = config.searchMonthlyQuota;
  const used = configured ? await searchRequestsThisMonth(deps.db.sql, config.tz, deps.now()) : 0;
  const remaining = Math.max(0, limit - used);
  const text = !configured
    ? i18n.t("registrySearch.notConfigured")
    : remaining === 0
      ? i18n.t("registrySearch.spent", { limit })
      : i18n.t("registrySearch.cost", { remaining, limit });
  return { configured, remaining, limit, text };
}

export type RegistryAnswer = { ok: true; records: BusinessRecord[] } | { ok: false; problem: string };

/** One request (the first page); every record the answer holds is kept. */
export async function searchRegistry(
  deps: WebDeps,
  kind: SearchKind,
  value: string,
  i18n: Translator,
): Promise<RegistryAnswer> {
  const { config } = deps;
  if (!config.searchUrl || !config.searchApiKey)
    return { ok: false, problem: i18n.t("registrySearch.notConfigured") };
  requireSearch(config);
  const search = await openSearch(config, deps.log, deps.db.sql);
  try {
    const { records } = await search.client.search(kind, value);
    await saveBusinesses(deps.db.sql, records, config.registryTz);
    return { ok: true, records };
  } catch (error) {
    if (!(error instanceof RegwatchError)) throw error;
    return { ok: false, problem: i18n.t("registrySearch.failed", { why: redactError(error) }) };
  } finally {
    await search
      .close()
      .catch((error: unknown) =>
        deps.log.error({ err: redactError(error) }, "could not record the console's search usage"),
      );
  }
}

/** The planned searches on one client; needs the search configured (the page offers it only then). */
export async function runNameSearches(
  deps: WebDeps,
  searches: readonly NameSearch[],
): Promise<NamingOutcome> {
  const { config } = deps;
  requireSearch(config);
  const search = await openSearch(config, deps.log, deps.db.sql);
  try {
    return await nameUnnamed(searches, {
      search: async (kind, value) => (await search.client.search(kind, value)).records,
      save: async (records) => {
        await saveBusinesses(deps.db.sql, records, config.registryTz);
      },
    });
  } finally {
    await search
      .close()
      .catch((error: unknown) =>
        deps.log.error({ err: redactError(error) }, "could not record the console's search usage"),
      );
  }
}

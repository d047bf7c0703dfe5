/**
 * One registration number to the tax base number to watch, through the search interface, for the
 * console's lists page (the CLI's `watch add --reg-number` resolves many at once). One request of
 * the monthly quota, refused before it is sent when none is left; the records found are stored as
 * a lookup stores them, so the business has its name at once.
 */
import type { Config } from "../config.ts";
import type { Sql } from "../db/connect.ts";
import { RegwatchError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { saveBusinesses } from "../parse/save-businesses.ts";
import { openSearch } from "../run/open-registry.ts";
import { said } from "../said.ts";
import { redactError } from "../secrets.ts";
import { type Resolution, taxIdForRegistrationNumber, unresolved } from "./resolve.ts";

export async function resolveRegistrationNumber(
  config: Config & { searchUrl: string; searchApiKey: string },
  log: Logger,
  sql: Sql,
  regNumber: string,
): Promise<Resolution> {
  const search = await openSearch(config, log, sql);
  try {
    if (search.quota.remaining < 1)
      return unresolved(
        said(
          "resolve.quota",
          { limit: search.quota.limit },
          `no search request of REGWATCH_SEARCH_MONTHLY_QUOTA=${search.quota.limit} is left this month; give the tax number instead`,
        ),
      );
    const { records } = await search.client.search("reg-number", regNumber);
    await saveBusinesses(sql, records, config.registryTz);
    return taxIdForRegistrationNumber(regNumber, records);
  } catch (error) {
    if (!(error instanceof RegwatchError)) throw error;
    const why = redactError(error);
    return unresolved(said("resolve.failed", { regNumber, why }, `searching ${regNumber} failed: ${why}`));
  } finally {
    await search.close();
  }
}

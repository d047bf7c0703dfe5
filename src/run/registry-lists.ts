/**
 * Reading the registry's watch lists once, outside a sync: a command that meets a list name it
 * does not know (an alert rule's --list on a fresh install) asks the registry before refusing.
 * One request through the process's registry client (its rate limiter, counted in api_usage); the
 * lists are stored as a sync stores them.
 */
import type { Config } from "../config.ts";
import type { Sql } from "../db/connect.ts";
import { coerceError } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { redactSecrets } from "../secrets.ts";
import { saveWatchLists } from "./lists.ts";
import { openRegistry } from "./open-registry.ts";

export type ListsRead = { ok: true; count: number } | { ok: false; why: string };

/** Reads and stores the registry's lists, or says why it could not (nothing configured, or the request failed). */
export async function readRegistryLists(config: Config, log: Logger, sql: Sql): Promise<ListsRead> {
  const { watchUrl, apiKey } = config;
  if (!watchUrl || !apiKey)
    return { ok: false, why: "no registry is configured (REGWATCH_WATCH_URL and REGWATCH_API_KEY)" };
  const registry = openRegistry({ ...config, watchUrl, apiKey }, log, sql);
  try {
    const { lists } = await registry.clients.watch.lists();
    const saved = await saveWatchLists(sql, lists);
    return { ok: true, count: saved.seen };
  } catch (error) {
    return {
      ok: false,
      why: `reading the registry's lists failed: ${redactSecrets(coerceError(error).message)}`,
    };
  } finally {
    await registry.close();
  }
}

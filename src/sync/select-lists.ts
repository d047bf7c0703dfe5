/**
 * The lists a sync or backfill covers. Read from the registry and stored once, unless the caller
 * has just done so (the daemon's reconcile reads them first and hands them on); then narrowed to
 * `--list` (keys or names). An unknown `--list` is a usage error, found before any run row.
 */
import type { RegistryClients } from "../api/registry.ts";
import type { Sql } from "../db/connect.ts";
import { UsageError } from "../errors.ts";
import { resolveListRefs } from "../list-ref.ts";
import { type StoredList, saveWatchLists } from "../run/lists.ts";

export async function selectLists(
  deps: { sql: Sql; registry: Pick<RegistryClients, "watch"> },
  wanted: readonly string[] = [],
  known?: readonly StoredList[],
): Promise<StoredList[]> {
  const lists = known ?? (await saveWatchLists(deps.sql, (await deps.registry.watch.lists()).lists)).lists;
  const resolved = resolveListRefs(wanted, lists);
  if (!resolved.ok) throw new UsageError(resolved.problem);
  const keys = new Set(resolved.lists.map((l) => l.listKey));
  return wanted.length > 0 ? lists.filter((l) => keys.has(l.listKey)) : [...lists];
}

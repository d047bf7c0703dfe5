/**
 * Deleting the remote lists of dropped desired lists (only those the plan allows: the operator
 * gave --allow-delete-lists). A list already gone counts as deleted; a failed deletion is a
 * problem, and the next run tries again.
 */
import { ApiError } from "../api/errors.ts";
import type { WatchClient } from "../api/watch-client.ts";
import type { Sql } from "../db/connect.ts";
import type { DropPlan } from "./drop-plan.ts";
import type { RequestCounts } from "./remote-state.ts";
import { markDroppedListsDeleted } from "./sql/dropped-lists.ts";

export interface DeletionResult {
  listName: string;
  listKey: string;
  items: number;
  deleted: boolean;
  error?: string;
}

export async function deleteDroppedLists(
  deps: { sql: Sql; watch: Pick<WatchClient, "deleteList"> },
  drops: DropPlan,
  requests: RequestCounts,
  problems: string[],
): Promise<DeletionResult[]> {
  const results: DeletionResult[] = [];
  for (const d of drops.delete) {
    requests.writes++;
    try {
      await deps.watch.deleteList(d.listKey, d.listName);
      results.push({ ...d, deleted: true });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.status === 404) {
        results.push({ ...d, deleted: true });
        continue;
      }
      requests.failed++;
      const message = `deleting dropped list "${d.listName}" (${d.listKey}) failed: ${error.message}`;
      problems.push(message);
      results.push({ ...d, deleted: false, error: error.message });
    }
  }
  const deleted = results.filter((r) => r.deleted);
  await markDroppedListsDeleted(
    deps.sql,
    [...drops.gone, ...deleted.map((r) => r.listName)],
    deleted.map((r) => r.listKey),
  );
  return results;
}

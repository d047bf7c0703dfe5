/**
 * Applies a reconcile plan through the watch interface: creates missing lists, then per list
 * removes before it adds (removals free capacity), each in the fewest bulk requests. A request
 * that fails after its retries marks its items failed; the other requests go on.
 */
import pLimit from "p-limit";
import { ApiError } from "../api/errors.ts";
import type { WatchClient } from "../api/watch-client.ts";
import type { Logger } from "../logger.ts";
import { failedRequestOutcomes, type ItemVerdict, type ReadOutcome, readBulkResult } from "./outcomes.ts";
import { chunk, type ListPlan, type ReconcilePlan } from "./plan.ts";
import type { ItemOp } from "./sql/desired-state.ts";

export interface ListResult {
  listName: string;
  listKey: string | null;
  created: boolean;
  /** Per op: items done, already in the wanted state, refused by the registry, without an answer. */
  add: OpCounts;
  remove: OpCounts;
  requests: { ok: number; failed: number };
  /** Items the registry refused, by its item code ("404": 3). */
  refusedCodes: Record<string, number>;
  /** Messages of requests that failed after their retries. */
  errors: string[];
}

export type OpCounts = Record<ItemVerdict, number>;

export interface ApplyResult {
  lists: ListResult[];
  /** Every item sent, with how the registry answered it. */
  outcomes: ReadOutcome[];
}

export interface ApplyDeps {
  watch: WatchClient;
  chunkSize: number;
  /** Requests in flight at most (the client's rate limiter paces them anyway). */
  concurrency: number;
  log: Logger;
}

export async function applyPlan(plan: ReconcilePlan, deps: ApplyDeps): Promise<ApplyResult> {
  const limit = pLimit(deps.concurrency);
  const results = await Promise.all(plan.lists.map((list) => applyList(list, deps, limit)));
  return {
    lists: results.map((r) => r.result),
    outcomes: results.flatMap((r) => r.outcomes),
  };
}

async function applyList(
  list: ListPlan,
  deps: ApplyDeps,
  limit: ReturnType<typeof pLimit>,
): Promise<{ result: ListResult; outcomes: ReadOutcome[] }> {
  const result: ListResult = {
    listName: list.listName,
    listKey: list.listKey,
    created: false,
    add: emptyCounts(),
    remove: emptyCounts(),
    requests: { ok: 0, failed: 0 },
    refusedCodes: {},
    errors: [],
  };
  const outcomes: ReadOutcome[] = [];
  const record = (op: ItemOp, read: ReadOutcome[]) => {
    for (const outcome of read) {
      result[op][outcome.verdict]++;
      if (outcome.verdict === "refused") {
        result.refusedCodes[String(outcome.code)] = (result.refusedCodes[String(outcome.code)] ?? 0) + 1;
      }
    }
    outcomes.push(...read);
  };

  let listKey = list.listKey;
  if (listKey === null) {
    try {
      const created = await limit(() => deps.watch.createList(list.listName));
      listKey = created.list_key;
      result.listKey = listKey;
      result.created = true;
      result.requests.ok++;
    } catch (error) {
      const reason = failureReason(error);
      result.requests.failed++;
      result.errors.push(`creating list "${list.listName}": ${reason}`);
      record(
        "add",
        failedRequestOutcomes(list.listName, "add", list.add, `the list could not be created: ${reason}`),
      );
      return { result, outcomes };
    }
  }
  const key = listKey;

  const send = async (op: ItemOp, ids: readonly string[]) => {
    await Promise.all(
      chunk(ids, deps.chunkSize).map((batch) =>
        limit(async () => {
          try {
            const answer =
              op === "add" ? await deps.watch.addItems(key, batch) : await deps.watch.removeItems(key, batch);
            result.requests.ok++;
            record(op, readBulkResult(list.listName, op, batch, answer));
          } catch (error) {
            const reason = failureReason(error);
            result.requests.failed++;
            result.errors.push(`${op} of ${batch.length} items on list "${list.listName}": ${reason}`);
            // Info: the report's problems name it, once.
            deps.log.info(
              { list: list.listName, listKey: key, op, items: batch.length, err: reason },
              "bulk request failed",
            );
            record(op, failedRequestOutcomes(list.listName, op, batch, reason));
          }
        }),
      ),
    );
  };
  await send("remove", list.remove);
  await send("add", list.add);
  return { result, outcomes };
}

/** Only registry failures are absorbed into the report; anything else is a bug and propagates. */
function failureReason(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  throw error;
}

function emptyCounts(): OpCounts {
  return { done: 0, already: 0, refused: 0, unanswered: 0 };
}

/** Lists whose remote items may have changed, so their stored copy should be read again. */
export function touchedListKeys(result: ApplyResult): string[] {
  return result.lists
    .filter((l) => l.listKey !== null && l.requests.ok + l.requests.failed > 0)
    .map((l) => l.listKey!);
}

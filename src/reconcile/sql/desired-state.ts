/**
 * The desired state the reconciler works from (`desired_lists`, `desired_items`) and the per-item
 * outcomes it writes back (`item_outcomes`). The reconciler only reads the desired tables.
 */

import type { Sql } from "../../db/connect.ts";
import { redactSecrets } from "../../secrets.ts";

export interface DesiredListState {
  listName: string;
  prune: boolean;
  /** Earliest desired first, so earlier wishes win a list's capacity. */
  taxIds: string[];
}

/** Every desired list with its items, in one snapshot (one read-only transaction). */
export async function loadDesiredState(sql: Sql): Promise<DesiredListState[]> {
  return sql.begin("isolation level repeatable read read only", async (tx) => {
    const lists = await tx<{ listName: string; prune: boolean }[]>`
      select list_name as "listName", prune from ${tx.t.desired_lists} order by list_name`;
    const items = await tx<{ listName: string; taxId: string }[]>`
      select list_name as "listName", tax_id as "taxId" from ${tx.t.desired_items}
      order by list_name, created_at, tax_id`;
    const byList = new Map(lists.map((l) => [l.listName, { ...l, taxIds: [] as string[] }]));
    for (const item of items) byList.get(item.listName)?.taxIds.push(item.taxId);
    return [...byList.values()];
  });
}

export type ItemOp = "add" | "remove";

export interface ItemOutcome {
  listName: string;
  taxId: string;
  op: ItemOp;
  /** The registry's item code (404/409/422/429), 0 when no per-item answer was had, null on success. */
  code: number | null;
  message: string;
}

const BATCH = 5000;

/** Upserts the latest outcome of each item, a few thousand rows per statement. */
export async function saveItemOutcomes(
  sql: Sql,
  runId: number,
  outcomes: readonly ItemOutcome[],
): Promise<void> {
  if (outcomes.length === 0) return;
  await sql.begin(async (tx) => {
    for (let i = 0; i < outcomes.length; i += BATCH) {
      const rows = outcomes.slice(i, i + BATCH).map((o) => ({
        list_name: o.listName,
        tax_id: o.taxId,
        op: o.op,
        code: o.code,
        message: redactSecrets(o.message),
        run_id: runId,
      }));
      await tx`
        insert into ${tx.t.item_outcomes} ${tx(rows, "list_name", "tax_id", "op", "code", "message", "run_id")}
        on conflict (list_name, tax_id, op) do update
        set code = excluded.code, message = excluded.message, run_id = excluded.run_id, at = now()`;
    }
  });
}

/**
 * Tax ids whose latest add the registry itself refused as unknown or impossible (404/422) since
 * `since`, by list name. Resending them before the registry's next data load cannot succeed.
 * (Ids refused locally as 422 are among them too; the plan rejects those before asking.)
 */
export async function recentAddRefusals(sql: Sql, since: Date): Promise<Map<string, Set<string>>> {
  const rows = await sql<{ listName: string; taxId: string }[]>`
    select list_name as "listName", tax_id as "taxId" from ${sql.t.item_outcomes}
    where op = 'add' and code in (404, 422) and at >= ${since}`;
  return byListName(rows);
}

/**
 * Tax ids whose latest removal the registry refused as not in a removable state (409) since
 * `since`, by list name: asking again before its next data load would be refused the same way.
 */
export async function recentRemoveRefusals(sql: Sql, since: Date): Promise<Map<string, Set<string>>> {
  const rows = await sql<{ listName: string; taxId: string }[]>`
    select list_name as "listName", tax_id as "taxId" from ${sql.t.item_outcomes}
    where op = 'remove' and code = 409 and at >= ${since}`;
  return byListName(rows);
}

function byListName(rows: readonly { listName: string; taxId: string }[]): Map<string, Set<string>> {
  const byList = new Map<string, Set<string>>();
  for (const row of rows) {
    const set = byList.get(row.listName) ?? new Set<string>();
    set.add(row.taxId);
    byList.set(row.listName, set);
  }
  return byList;
}

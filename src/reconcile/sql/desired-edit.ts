/**
 * Operator edits of the desired state (`regwatch watch ...`): lists are created when first named,
 * items are added and removed by tax base number. The reconciler turns these rows into remote
 * changes; nothing here calls the registry.
 */
import type { Sql, Tx } from "../../db/connect.ts";

/** Postgres client or an open transaction. */
type Runner = Sql | Tx;

export interface DesiredEntry {
  taxId: string;
  note?: string | null;
}

/**
 * Creates the list when missing. `prune` is set only when given, so naming an existing list
 * without it keeps the list's setting; a new list prunes by default (the column's default).
 */
export async function ensureDesiredList(
  sql: Runner,
  listName: string,
  prune?: boolean,
): Promise<{ created: boolean; prune: boolean }> {
  const [row] = await sql<{ created: boolean; prune: boolean }[]>`
    insert into ${sql.t.desired_lists} (list_name, prune)
    values (${listName}, ${prune ?? true})
    on conflict (list_name) do update
      set prune = coalesce(${prune ?? null}::boolean, desired_lists.prune),
          updated_at = case when desired_lists.prune is distinct from coalesce(${prune ?? null}::boolean, desired_lists.prune)
                            then now() else desired_lists.updated_at end
    returning (xmax = 0) as created, prune`;
  // Desired again: a drop not carried out yet is cancelled, so reconcile never deletes the list.
  await sql`delete from ${sql.t.dropped_lists} where list_name = ${listName} and deleted_at is null`;
  return row!;
}

/** Adds items; ones already desired keep their original source and note. Returns the tax ids added. */
export async function addDesiredItems(
  sql: Runner,
  listName: string,
  entries: readonly DesiredEntry[],
  source: "cli" | "import" | "demo",
): Promise<string[]> {
  if (entries.length === 0) return [];
  const rows = entries.map((e) => ({ list_name: listName, tax_id: e.taxId, source, note: e.note ?? null }));
  const added: string[] = [];
  for (let i = 0; i < rows.length; i += 5000) {
    const inserted = await sql<{ tax_id: string }[]>`
      insert into ${sql.t.desired_items} ${sql(rows.slice(i, i + 5000), "list_name", "tax_id", "source", "note")}
      on conflict (list_name, tax_id) do nothing
      returning tax_id`;
    added.push(...inserted.map((r) => r.tax_id));
  }
  return added;
}

/** Removes one item; false when it was not desired. */
export async function removeDesiredItem(sql: Runner, listName: string, taxId: string): Promise<boolean> {
  const removed = await sql`
    delete from ${sql.t.desired_items} where list_name = ${listName} and tax_id = ${taxId} returning tax_id`;
  return removed.length > 0;
}

export async function desiredListExists(sql: Runner, listName: string): Promise<boolean> {
  const [row] = await sql<{ found: boolean }[]>`
    select exists(select 1 from ${sql.t.desired_lists} where list_name = ${listName}) as found`;
  return row?.found ?? false;
}

export interface DesiredItemStatus {
  listName: string;
  prune: boolean;
  taxId: string | null;
  source: string | null;
  note: string | null;
  businessName: string | null;
  /** v_watch_status.state: in_sync, pending_add, add_failed, pending_remove, not_requested, unmanaged. */
  state: string | null;
  lastCode: number | null;
  lastMessage: string | null;
}

/**
 * Desired lists with their items and each item's state as the reconciler left it; a list with no
 * items appears once with a null tax id. Remote items waiting to be pruned are included, and those
 * someone put on a managed list at the registry (not_requested: reconcile leaves them).
 */
export async function listDesiredItems(sql: Runner, listName?: string): Promise<DesiredItemStatus[]> {
  return sql<DesiredItemStatus[]>`
    select dl.list_name as "listName", dl.prune, s.tax_id as "taxId", di.source, di.note,
           coalesce(case when p.name_source is distinct from 'operator' then p.name end, b.full_name) as "businessName", s.state, s.last_code as "lastCode", s.last_message as "lastMessage"
    from ${sql.t.desired_lists} dl
    left join ${sql.t.v_watch_status} s
      on s.list_name = dl.list_name and (s.desired or s.state in ('pending_remove', 'not_requested'))
    left join ${sql.t.desired_items} di on di.list_name = s.list_name and di.tax_id = s.tax_id
    left join ${sql.t.businesses} b on b.tax_id = s.tax_id
    left join ${sql.t.business_profiles} p on p.tax_id = s.tax_id
    where ${listName === undefined ? sql`true` : sql`dl.list_name = ${listName}`}
    order by dl.list_name, s.tax_id nulls first`;
}

/** Up to `limit` desired lists whose name does not start with `prefix` (the demo's own rows do). */
export async function desiredListsOutside(sql: Runner, prefix: string, limit = 5): Promise<string[]> {
  const rows = await sql<{ list_name: string }[]>`
    select list_name from ${sql.t.desired_lists} where not starts_with(list_name, ${prefix})
    order by list_name limit ${limit}`;
  return rows.map((r) => r.list_name);
}

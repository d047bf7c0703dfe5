/**
 * The record of what regwatch asked for on each remote list it manages (`managed_lists`,
 * `managed_items`), and adoption: the items already on a remote list regwatch starts to manage
 * become desired items. Reconcile removes a remote item only when this record holds it; the
 * record lives apart from desired_items, which other systems rewrite with plain SQL.
 */
import type { Sql, Tx } from "../../db/connect.ts";

type Runner = Sql | Tx;

export interface ManagedState {
  /** Remote lists regwatch manages, by key. */
  lists: Set<string>;
  /** What regwatch asked for, by list key. */
  items: Map<string, Set<string>>;
}

/** The record for these remote lists. */
export async function loadManaged(sql: Sql, listKeys: readonly string[]): Promise<ManagedState> {
  const state: ManagedState = { lists: new Set(), items: new Map() };
  if (listKeys.length === 0) return state;
  const keys = listKeys as string[];
  const lists = await sql<{ listKey: string }[]>`
    select list_key as "listKey" from ${sql.t.managed_lists} where list_key = any(${keys}::text[])`;
  for (const l of lists) {
    state.lists.add(l.listKey);
    state.items.set(l.listKey, new Set());
  }
  const items = await sql<{ listKey: string; taxId: string }[]>`
    select list_key as "listKey", tax_id as "taxId" from ${sql.t.managed_items}
    where list_key = any(${keys}::text[])`;
  for (const i of items) state.items.get(i.listKey)?.add(i.taxId);
  return state;
}

export interface ManagedEntry {
  listKey: string;
  listName: string;
  taxIds: readonly string[];
}

export interface AdoptionEntry extends ManagedEntry {
  /** Every tax base number on the remote list: all of it is regwatch's from now on. */
  remote: readonly string[];
}

/**
 * Adopts remote items into desired_items (source `adopted`, with the day and the list they came
 * from) and starts managing the lists, in one transaction. Rows already desired are left as they
 * are. Returns, per list key, the tax ids that became desired.
 */
export async function adoptRemoteItems(
  sql: Sql,
  runId: number,
  day: string,
  adoptions: readonly AdoptionEntry[],
): Promise<Map<string, string[]>> {
  const adopted = new Map<string, string[]>();
  if (adoptions.length === 0) return adopted;
  await sql.begin(async (tx) => {
    for (const a of adoptions) {
      const rows = a.taxIds.map((taxId) => ({
        list_name: a.listName,
        tax_id: taxId,
        source: "adopted",
        adopted_on: day,
        adopted_from: a.listKey,
      }));
      const inserted: string[] = [];
      for (let i = 0; i < rows.length; i += 5000) {
        const chunk = rows.slice(i, i + 5000);
        const done = await tx<{ tax_id: string }[]>`
          insert into ${tx.t.desired_items}
            ${tx(chunk, "list_name", "tax_id", "source", "adopted_on", "adopted_from")}
          on conflict (list_name, tax_id) do nothing
          returning tax_id`;
        inserted.push(...done.map((r) => r.tax_id));
      }
      adopted.set(a.listKey, inserted);
      await tx`
        insert into ${tx.t.managed_lists} (list_key, list_name, adopted_on, adopted_items)
        values (${a.listKey}, ${a.listName}, ${day}::date, ${inserted.length})
        on conflict (list_key) do update
          set list_name = excluded.list_name, adopted_on = excluded.adopted_on,
              adopted_items = excluded.adopted_items`;
      const taken = new Set(inserted);
      await insertManagedItems(
        tx,
        runId,
        a.listKey,
        a.remote.map((taxId) => ({ taxId, adopted: taken.has(taxId) })),
      );
    }
  });
  return adopted;
}

/** Records lists as managed and tax ids as asked for on them; what is recorded already stays as it is. */
export async function recordManaged(
  sql: Sql,
  runId: number,
  entries: readonly ManagedEntry[],
): Promise<void> {
  if (entries.length === 0) return;
  await sql.begin(async (tx) => {
    const lists = entries.map((e) => ({ list_key: e.listKey, list_name: e.listName }));
    await tx`
      insert into ${tx.t.managed_lists} ${tx(lists, "list_key", "list_name")}
      on conflict (list_key) do update set list_name = excluded.list_name
        where managed_lists.list_name is distinct from excluded.list_name`;
    for (const e of entries) {
      await insertManagedItems(
        tx,
        runId,
        e.listKey,
        e.taxIds.map((taxId) => ({ taxId, adopted: false })),
      );
    }
  });
}

/** Forgets tax ids regwatch no longer has on a list (removed, or neither desired nor there). */
export async function forgetManaged(sql: Sql, entries: readonly ManagedEntry[]): Promise<void> {
  const rows = entries.flatMap((e) => e.taxIds.map((taxId) => [e.listKey, taxId] as const));
  if (rows.length === 0) return;
  await sql`
    delete from ${sql.t.managed_items} m
    using unnest(${rows.map((r) => r[0])}::text[], ${rows.map((r) => r[1])}::text[]) as f(list_key, tax_id)
    where m.list_key = f.list_key and m.tax_id = f.tax_id`;
}

/**
 * Forgets that regwatch managed the remote lists of a desired list (its items go with them): an
 * operator dropped it, so desiring the name again adopts what is on the list rather than pruning.
 */
export async function forgetManagedList(sql: Runner, listName: string): Promise<void> {
  await sql`delete from ${sql.t.managed_lists} where list_name = ${listName}`;
}

async function insertManagedItems(
  tx: Tx,
  runId: number,
  listKey: string,
  items: readonly { taxId: string; adopted: boolean }[],
): Promise<void> {
  const rows = items.map((i) => ({ list_key: listKey, tax_id: i.taxId, adopted: i.adopted, run_id: runId }));
  for (let i = 0; i < rows.length; i += 5000) {
    await tx`
      insert into ${tx.t.managed_items} ${tx(rows.slice(i, i + 5000), "list_key", "tax_id", "adopted", "run_id")}
      on conflict (list_key, tax_id) do nothing`;
  }
}

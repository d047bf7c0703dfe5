/**
 * `--list` takes a watch list's key or its name, in every command. Pure: the caller passes the
 * lists it knows (watch_lists, desired_lists). A key matches first, since keys are unique and a
 * list could be named like another one's key; a name selects every list of that name (the
 * registry allows duplicates). Messages name a list by both: `suppliers (wl_123)`.
 */

export interface KnownList {
  listKey: string;
  listName: string;
}

export type ListRefResolution =
  | { ok: true; lists: KnownList[] }
  | { ok: false; problem: string; unknown: string[] };

export function resolveListRefs(refs: readonly string[], known: readonly KnownList[]): ListRefResolution {
  const chosen = new Map<string, KnownList>();
  const unknown: string[] = [];
  for (const ref of refs) {
    const byKey = known.find((l) => l.listKey === ref);
    const matches = byKey ? [byKey] : known.filter((l) => l.listName === ref);
    if (matches.length === 0) unknown.push(ref);
    for (const list of matches) chosen.set(list.listKey, list);
  }
  if (unknown.length > 0) {
    const names = known.map(describeList).join(", ") || "none";
    return {
      ok: false,
      unknown,
      problem: `--list ${unknown.join(", ")}: no such watch list, by key or name (known: ${names})`,
    };
  }
  return { ok: true, lists: [...chosen.values()] };
}

/** `suppliers (wl_123)`. */
export function describeList(list: KnownList): string {
  return `${list.listName} (${list.listKey})`;
}

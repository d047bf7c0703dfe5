/**
 * A value made once per key and kept in `memo` (pure apart from the map): a batch repeats the
 * same payees, accounts and texts row after row. Past `limit` keys the map starts again, so
 * memory stays bounded whatever the batch.
 */
export function remembered<K, V>(memo: Map<K, V>, limit: number, key: K, make: (key: K) => V): V {
  let made = memo.get(key);
  if (made === undefined) {
    if (memo.size >= limit) memo.clear();
    made = make(key);
    memo.set(key, made);
  }
  return made;
}

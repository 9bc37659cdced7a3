/**
 * `load()`'s promise kept in `map` under `key` and shared by every caller, concurrent ones included; a
 * rejected one is forgotten, so the next call tries again.
 */
export function keptPromise<K, V>(map: Map<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> {
  const kept = map.get(key);
  if (kept) return kept;
  const value = load();
  map.set(key, value);
  value.catch(() => {
    if (map.get(key) === value) map.delete(key);
  });
  return value;
}

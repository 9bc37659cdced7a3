/**
 * In-process memo for small reads that every render repeats (SEO rows, site texts), dropped when one of
 * its cache tags is invalidated — the same signal that clears the route cache, which reaches every server
 * process through the event bus (docs/decisions/022) — and after a time-to-live: the backstop for a
 * signal that could not be sent (every process also drops all memos when its listener reconnects).
 */
// On globalThis: the route-cache provider and the pages may end up in different chunks of the build, and
// both must reach the same registry.
type Registry = Set<{ tags: readonly string[]; clear(): void }>;
const holder = globalThis as unknown as { __agencyTagMemos?: Registry };
const registry: Registry = (holder.__agencyTagMemos ??= new Set());

/** Keys may come from request paths: past this many, the memo starts over instead of growing. */
const MAX_KEYS = 2000;

export interface TagMemo<T> {
  get(key: string): Promise<T>;
  clear(): void;
}

export function tagMemo<T>(tags: readonly string[], ttlMs: number, load: (key: string) => Promise<T>): TagMemo<T> {
  const entries = new Map<string, { value: Promise<T>; at: number }>();
  const memo: TagMemo<T> = {
    get(key) {
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && now - hit.at < ttlMs) return hit.value;
      // Concurrent renders share one read; a failed read is not kept, so the next render retries.
      const value = load(key);
      if (entries.size >= MAX_KEYS) entries.clear();
      entries.set(key, { value, at: now });
      value.catch(() => {
        if (entries.get(key)?.value === value) entries.delete(key);
      });
      return value;
    },
    clear: () => entries.clear(),
  };
  registry.add({ tags, clear: memo.clear });
  return memo;
}

/**
 * `read` kept per argument list until one of `tags` is invalidated (or `ttlMs` passes): for public content,
 * which changes only when an admin saves, so each process reads it once per change rather than once per
 * render. The value is shared by every caller: treat it as read-only.
 */
export function memoizedRead<A extends unknown[], T>(tags: readonly string[], ttlMs: number, read: (...args: A) => Promise<T>): (...args: A) => Promise<T> {
  // The memo calls its loader synchronously inside `get`: the arguments themselves reach `read` (a JSON
  // round trip would turn undefined into null).
  let current: A | undefined;
  const memo = tagMemo(tags, ttlMs, () => read(...current!));
  return (...args) => {
    current = args;
    try {
      return memo.get(JSON.stringify(args));
    } finally {
      current = undefined;
    }
  };
}

/** Drops every memo (events may have been missed). */
export function clearAllMemos() {
  for (const m of registry) m.clear();
}

/** Drops every memo that depends on one of `tags`. */
export function invalidateMemos(tags: readonly string[]) {
  for (const m of registry) if (m.tags.some((t) => tags.includes(t))) m.clear();
}

import { describe, expect, it } from 'vitest';
import { ByteLimitedStore, DEFAULT_CACHE_BYTES, MIN_CACHE_BYTES, type CachedPage } from '../../src/server/cache/byte-store';

const page = (bodyBytes: number, extra: Partial<CachedPage> = {}): CachedPage => ({
  body: new ArrayBuffer(bodyBytes),
  status: 200,
  headers: [],
  storedAt: Date.now(),
  maxAgeSeconds: 300,
  tags: [],
  ...extra,
});

// Keys are one character, so each entry costs its body plus 2 bytes of key.
const KB = 1024;

describe('ByteLimitedStore', () => {
  it('defaults to 41943040 bytes and never goes below 1048576, even when asked to', () => {
    expect(new ByteLimitedStore().maxBytes).toBe(DEFAULT_CACHE_BYTES);
    expect(DEFAULT_CACHE_BYTES).toBe(41_943_040);
    expect(new ByteLimitedStore(10).maxBytes).toBe(MIN_CACHE_BYTES);
    expect(new ByteLimitedStore(0).maxBytes).toBe(1_048_576);
    expect(new ByteLimitedStore(Number.NaN).maxBytes).toBe(DEFAULT_CACHE_BYTES);
    expect(new ByteLimitedStore(5_000_000).maxBytes).toBe(5_000_000);
  });

  it('evicts the least recently used entries first when the bytes run out', () => {
    const store = new ByteLimitedStore(MIN_CACHE_BYTES);
    const quarter = 256 * KB - 2;
    store.set('a', page(quarter));
    store.set('b', page(quarter));
    store.set('c', page(quarter));
    store.set('d', page(quarter));
    expect(store.bytes).toBe(MIN_CACHE_BYTES);
    store.get('a'); // a becomes the most recently used; b is now the oldest
    store.set('e', page(quarter));
    expect(store.get('b')).toBeUndefined();
    expect(store.size).toBe(4);
    // A larger entry evicts as many of the oldest as it needs: c then d, while a (read) and e (new) stay.
    store.set('f', page(2 * quarter));
    expect(store.get('c')).toBeUndefined();
    expect(store.get('d')).toBeUndefined();
    expect(store.get('a')).toBeDefined();
    expect(store.get('e')).toBeDefined();
    expect(store.bytes).toBeLessThanOrEqual(MIN_CACHE_BYTES);
  });

  it('refuses an entry larger than the whole budget without evicting anything', () => {
    const store = new ByteLimitedStore(MIN_CACHE_BYTES);
    store.set('a', page(KB));
    expect(store.set('huge', page(MIN_CACHE_BYTES + 1))).toBe(false);
    expect(store.get('huge')).toBeUndefined();
    expect(store.get('a')).toBeDefined();
  });

  it('counts replacing a key once, not twice', () => {
    const store = new ByteLimitedStore(MIN_CACHE_BYTES);
    store.set('a', page(100 * KB));
    store.set('a', page(10 * KB));
    expect(store.size).toBe(1);
    expect(store.bytes).toBe(10 * KB + 2);
  });

  it('counts header bytes toward the budget', () => {
    const store = new ByteLimitedStore(MIN_CACHE_BYTES);
    store.set('a', page(0, { headers: [['content-security-policy', 'x'.repeat(1000)]] }));
    expect(store.bytes).toBeGreaterThan(2000);
  });

  it('expires an entry after its max-age and frees its bytes', () => {
    const store = new ByteLimitedStore();
    const t0 = 1_000_000;
    store.set('a', page(KB, { storedAt: t0, maxAgeSeconds: 60 }));
    expect(store.get('a', t0 + 60_000)).toBeDefined();
    expect(store.get('a', t0 + 60_001)).toBeUndefined();
    expect(store.bytes).toBe(0);
  });

  it('deletes the entries a predicate matches (tag invalidation)', () => {
    const store = new ByteLimitedStore();
    store.set('/services', page(KB, { tags: ['services', 'site'] }));
    store.set('/articles', page(KB, { tags: ['articles', 'site'] }));
    store.deleteWhere((_, e) => e.tags.includes('services'));
    expect(store.get('/services')).toBeUndefined();
    expect(store.get('/articles')).toBeDefined();
    expect(store.bytes).toBe(KB + '/articles'.length * 2);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { MEDIA_CACHE_MAX_AGE_SECONDS, MediaCache, type LoadedImage } from '../../src/server/media/cache';
import { parseConfig } from '../../src/server/config';

const MiB = 1_048_576;
const image = (bytes: number, keep = true): LoadedImage => ({ bytes: new Uint8Array(bytes).fill(7), keep });

/** A load the test finishes by hand, to hold it in flight. */
function deferred() {
  let resolve!: (value: LoadedImage | undefined) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<LoadedImage | undefined>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const ID = 'a'.repeat(32);

afterEach(() => {
  vi.useRealTimers();
});

describe('MediaCache', () => {
  it('keeps what it loaded and answers later requests from memory', async () => {
    const cache = new MediaCache(MiB);
    const load = vi.fn(async () => image(1000));
    await cache.load(ID, load);
    const again = await cache.load(ID, load);
    expect(load).toHaveBeenCalledTimes(1);
    expect(again?.bytes.byteLength).toBe(1000);
    const entry = cache.get(ID)!;
    expect(entry.body.byteLength).toBe(1000);
    expect(Object.fromEntries(entry.headers)).toMatchObject({ etag: `"${ID}"`, 'content-length': '1000', 'content-type': 'image/webp' });
  });

  it('lets concurrent misses for one file share one load; a failed load fails them all and is not kept', async () => {
    const cache = new MediaCache(MiB);
    const pending = deferred();
    const load = vi.fn(() => pending.promise);
    const waiting = Promise.all([cache.load(ID, load), cache.load(ID, load), cache.load(ID, load)]);
    pending.resolve(image(10));
    expect((await waiting).map((i) => i?.bytes.byteLength)).toEqual([10, 10, 10]);
    expect(load).toHaveBeenCalledTimes(1);

    const failing = vi.fn(() => Promise.reject(new Error('database down')));
    const key = `${ID}-w400`;
    await expect(Promise.all([cache.load(key, failing), cache.load(key, failing)])).rejects.toThrow('database down');
    expect(failing).toHaveBeenCalledTimes(1);
    expect(cache.get(key)).toBeUndefined();
    await cache.load(key, async () => image(5));
    expect(cache.get(key)).toBeDefined();
  });

  it('never holds more than its budget: least recently used out first, no picture over a quarter of it, stand-ins never', async () => {
    const cache = new MediaCache(MiB);
    const quarter = cache.maxEntryBytes;
    expect(quarter).toBe(MiB / 4);
    // Each entry also costs its key and headers: four of these do not fit, three do.
    const size = quarter;
    const keys = ['1', '2', '3', '4'].map((c) => c.repeat(32));
    for (const key of keys.slice(0, 3)) {
      await cache.load(key, async () => image(size));
      expect(cache.store.bytes).toBeLessThanOrEqual(MiB);
    }
    cache.get(keys[0]!); // now the most recently used
    await cache.load(keys[3]!, async () => image(size));
    expect(cache.store.bytes).toBeLessThanOrEqual(MiB);
    expect(cache.get(keys[1]!) === undefined).toBe(true);
    expect(cache.get(keys[0]!) === undefined).toBe(false);

    await cache.load('5'.repeat(32), async () => image(quarter + 1));
    expect(cache.get('5'.repeat(32))).toBeUndefined();
    await cache.load('6'.repeat(32), async () => image(100, false));
    expect(cache.get('6'.repeat(32))).toBeUndefined();
    expect(cache.store.bytes).toBeLessThanOrEqual(MiB);
  });

  it('forgets an image and its variants, and a load still running when it is deleted stores nothing', async () => {
    const cache = new MediaCache(MiB);
    await cache.load(ID, async () => image(10));
    await cache.load(`${ID}-w400`, async () => image(5));
    const pending = deferred();
    const inFlight = cache.load(`${ID}-w800`, () => pending.promise);
    cache.forget(ID);
    pending.resolve(image(7));
    expect((await inFlight)?.bytes.byteLength).toBe(7); // the request that was already waiting gets its answer
    for (const key of [ID, `${ID}-w400`, `${ID}-w800`]) expect(cache.get(key), key).toBeUndefined();
    // The next request loads again (and finds whatever the database now says).
    const reload = vi.fn(async () => undefined);
    expect(await cache.load(ID, reload)).toBeUndefined();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('lets entries expire, so other server processes forget a deletion within the route cache’s lifetime', async () => {
    vi.useFakeTimers();
    const cache = new MediaCache(MiB);
    await cache.load(ID, async () => image(10));
    vi.advanceTimersByTime((MEDIA_CACHE_MAX_AGE_SECONDS - 1) * 1000);
    expect(cache.get(ID)).toBeDefined();
    vi.advanceTimersByTime(2000);
    expect(cache.get(ID)).toBeUndefined();
  });
});

describe('MEDIA_CACHE_BYTES', () => {
  it('is 32 MiB by default, at least 1 MiB, a whole number of bytes or the server does not start', () => {
    expect(parseConfig({}).MEDIA_CACHE_BYTES).toBe(33_554_432);
    expect(parseConfig({ MEDIA_CACHE_BYTES: '' }).MEDIA_CACHE_BYTES).toBe(33_554_432);
    expect(parseConfig({ MEDIA_CACHE_BYTES: '1048576' }).MEDIA_CACHE_BYTES).toBe(MiB);
    expect(() => parseConfig({ MEDIA_CACHE_BYTES: '32MB' })).toThrow(/MEDIA_CACHE_BYTES: must be a number of bytes/);
    expect(() => parseConfig({ MEDIA_CACHE_BYTES: '1000' })).toThrow(/MEDIA_CACHE_BYTES: must be at least 1048576/);
    expect(() => parseConfig({ MEDIA_CACHE_BYTES: '2e6.5' })).toThrow(/MEDIA_CACHE_BYTES/);
  });
});

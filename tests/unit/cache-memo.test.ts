import { afterEach, describe, expect, it, vi } from 'vitest';
import { invalidateMemos, memoizedRead, tagMemo } from '../../src/server/cache/memo';

afterEach(() => vi.useRealTimers());

describe('tag memo', () => {
  it('reads once for concurrent and repeated renders', async () => {
    const load = vi.fn(async (k: string) => `value of ${k}`);
    const memo = tagMemo(['seo'], 60_000, load);
    const [a, b] = await Promise.all([memo.get('/'), memo.get('/')]);
    await memo.get('/');
    expect([a, b]).toEqual(['value of /', 'value of /']);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('reads again after one of its tags is invalidated, and not for other tags', async () => {
    let version = 1;
    const memo = tagMemo(['seo', 'site'], 60_000, async () => version);
    expect(await memo.get('/')).toBe(1);
    version = 2;
    invalidateMemos(['articles']);
    expect(await memo.get('/')).toBe(1);
    invalidateMemos(['site']);
    expect(await memo.get('/')).toBe(2);
  });

  it('reads again once the time-to-live has passed', async () => {
    vi.useFakeTimers();
    let version = 1;
    const memo = tagMemo(['seo'], 1000, async () => version);
    expect(await memo.get('/')).toBe(1);
    version = 2;
    vi.advanceTimersByTime(999);
    expect(await memo.get('/')).toBe(1);
    vi.advanceTimersByTime(1);
    expect(await memo.get('/')).toBe(2);
  });

  it('does not keep a failed read: the next render retries', async () => {
    let fail = true;
    const memo = tagMemo(['seo'], 60_000, async () => {
      if (fail) throw new Error('database down');
      return 'ok';
    });
    await expect(memo.get('/')).rejects.toThrow('database down');
    fail = false;
    expect(await memo.get('/')).toBe('ok');
  });
});

describe('memoizedRead', () => {
  it('reads once per argument list until a tag is invalidated, passing the arguments as given', async () => {
    const calls: unknown[][] = [];
    const read = memoizedRead(['articles'], 60_000, async (tag: string | undefined, page: number) => (calls.push([tag, page]), `${tag}:${page}`));
    expect(await read(undefined, 1)).toBe('undefined:1');
    expect(await read(undefined, 1)).toBe('undefined:1');
    expect(await read('ai', 1)).toBe('ai:1');
    expect(calls).toEqual([[undefined, 1], ['ai', 1]]);
    invalidateMemos(['services']);
    await read(undefined, 1);
    expect(calls).toHaveLength(2);
    invalidateMemos(['articles']);
    await read(undefined, 1);
    expect(calls).toHaveLength(3);
  });

  it('does not keep a failed read', async () => {
    let fail = true;
    const read = memoizedRead(['demos'], 60_000, async () => {
      if (fail) throw new Error('database away');
      return 'ok';
    });
    await expect(read()).rejects.toThrow('database away');
    fail = false;
    expect(await read()).toBe('ok');
  });
});

/**
 * The ingest's in-memory parts (src/server/modules/analytics): the per-day buffer adds views up, hands them
 * over once, takes back what a failed flush could not write, and stays bounded; the per-address limit
 * refuses past its maximum within a window, says when to retry, and starts afresh with the next window.
 */
import { describe, expect, it } from 'vitest';
import { capSources, MAX_BUFFERED_KEYS, sourceKeyOf, sourceOfKey, ViewBuffer } from '../../src/server/modules/analytics/buffer';
import { AddressRateLimit } from '../../src/server/modules/analytics/rate';
import type { ClassifiedView } from '../../src/shared/analytics';

const view = (over: Partial<ClassifiedView> = {}): ClassifiedView => ({
  day: '2026-11-25',
  path: '/',
  device: 'desktop',
  source: { referrerHost: '', utmSource: '', utmMedium: '', utmCampaign: '' },
  ...over,
});

describe('ViewBuffer', () => {
  it('adds views up per day: pages and devices per view, sources per visit, each visitor hash once', () => {
    const buffer = new ViewBuffer();
    buffer.add(view(), 'a');
    buffer.add(view({ path: '/services', source: null, device: 'mobile' }), 'a');
    buffer.add(view({ source: { referrerHost: 'google.com', utmSource: 'x', utmMedium: '', utmCampaign: '' } }), 'b');
    buffer.add(view({ day: '2026-11-26' }), 'a');
    const taken = buffer.take();
    expect(buffer.isEmpty).toBe(true);
    const day = taken.get('2026-11-25')!;
    expect([day.views, day.visits, [...day.visitors]]).toEqual([3, 2, ['a', 'b']]);
    expect(Object.fromEntries(day.pages)).toEqual({ '/': 2, '/services': 1 });
    expect(Object.fromEntries(day.devices)).toEqual({ desktop: 2, mobile: 1 });
    expect([...day.sources].map(([k, n]) => [sourceOfKey(k).referrerHost, n])).toEqual([
      ['', 1],
      ['google.com', 1],
    ]);
    expect(taken.get('2026-11-26')!.views).toBe(1);
  });

  it('a source key survives any characters in its values', () => {
    const source = { referrerHost: 'a.example', utmSource: '","|', utmMedium: '\\', utmCampaign: 'spring sale' };
    expect(sourceOfKey(sourceKeyOf(source))).toEqual(source);
  });

  it('takes back a failed flush’s counts, adding them to what arrived since', () => {
    const buffer = new ViewBuffer();
    buffer.add(view(), 'a');
    const failed = buffer.take();
    buffer.add(view(), 'b');
    expect(buffer.restore(failed)).toBe(0);
    const day = buffer.take().get('2026-11-25')!;
    expect([day.views, day.visits, day.visitors.size, day.pages.get('/')]).toEqual([2, 2, 2, 2]);
  });

  it('drops views rather than grow past its bound', () => {
    const buffer = new ViewBuffer();
    let accepted = 0;
    // Each view brings a new path and a new visitor: two keys.
    for (let i = 0; i < MAX_BUFFERED_KEYS; i++) if (buffer.add(view({ path: `/p${i}`, source: null }), `h${i}`)) accepted += 1;
    expect(accepted).toBe(MAX_BUFFERED_KEYS / 2);
    // A view that adds no key still counts.
    expect(buffer.add(view({ path: '/p0', source: null }), 'h0')).toBe(true);
    const full = buffer.take();
    buffer.add(view({ path: '/new', source: null }), 'new');
    expect(buffer.restore(full)).toBe(MAX_BUFFERED_KEYS / 2 + 1);
  });
});

describe('AddressRateLimit', () => {
  it('allows the maximum per address and window, then says when to retry; the next window starts afresh', () => {
    const limit = new AddressRateLimit({ max: 3, windowSeconds: 60 });
    const start = Date.UTC(2026, 10, 25, 10, 0, 0);
    expect([1, 2, 3].map(() => limit.consume('a', start + 15_000).ok)).toEqual([true, true, true]);
    expect(limit.consume('a', start + 15_000)).toEqual({ ok: false, retryAfterSeconds: 45 });
    expect(limit.consume('b', start + 15_000).ok).toBe(true);
    expect(limit.consume('a', start + 60_000).ok).toBe(true);
  });
});

describe('capSources: at most so many sources a day, the rest as "other"', () => {
  const key = (referrerHost: string, utmSource = '', utmCampaign = '') => sourceKeyOf({ referrerHost, utmSource, utmMedium: '', utmCampaign });
  const OTHER_PLAIN = key('', '(other)');
  const OTHER_CAMPAIGN = key('', '(other)', '(other)');

  it('keeps every source while the day has room', () => {
    const buffered = new Map([[key('a.example'), 2], [key('', 'x', 'spring'), 1]]);
    expect(capSources(buffered, new Set(), 3)).toEqual(buffered);
  });

  it('past the cap, new sources go to "other" (with or without a campaign); known ones keep counting', () => {
    const stored = new Set([key('known.example'), key('also.example')]);
    const buffered = new Map([
      [key('known.example'), 5],
      [key('new-big.example'), 4],
      [key('new-small.example'), 1],
      [key('', 'spam', 'buy-now'), 3],
      [key('', 'spam2'), 2],
    ]);
    expect(Object.fromEntries(capSources(buffered, stored, 3))).toEqual({
      [key('known.example')]: 5,
      // The one place left goes to the most visited new source.
      [key('new-big.example')]: 4,
      [OTHER_CAMPAIGN]: 3,
      [OTHER_PLAIN]: 3,
    });
  });

  it('the "other" rows do not count against the cap', () => {
    const stored = new Set([key('a.example'), OTHER_PLAIN, OTHER_CAMPAIGN]);
    expect([...capSources(new Map([[key('b.example'), 1]]), stored, 2).keys()]).toEqual([key('b.example')]);
  });

  it('ties are decided by key, so every process keeps the same ones', () => {
    const buffered = new Map([[key('z.example'), 1], [key('a.example'), 1]]);
    expect([...capSources(buffered, new Set(), 1).keys()].sort()).toEqual([key('a.example'), OTHER_PLAIN].sort());
  });
});

/**
 * The pure rules of leads by person (src/shared/lead-people.ts): the person key in URLs, the list's URL
 * state, the first-source label, the timeline's merge and cursor (never a gap or a repeat, even when
 * entries share a millisecond), page-visit grouping and day grouping.
 */
import { describe, expect, it } from 'vitest';
import {
  cursorOf,
  durationInWords,
  emailOfPersonKey,
  firstSourceLabel,
  groupByDayIn,
  groupPageVisits,
  mailKindLabel,
  mergeTimeline,
  peopleQueryOf,
  peopleSearch,
  personHref,
  personKeyOf,
  referrerHostOf,
  type PageTimeRow,
  type SourcePage,
} from '../../src/shared/lead-people';

describe('person key', () => {
  it('is the base64url of the lower-cased email, and decodes back', () => {
    const key = personKeyOf('  Ann.Smith+Leads@Example.COM ');
    expect(key).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(key).not.toContain('@');
    expect(key).toBe(personKeyOf('ann.smith+leads@example.com'));
    expect(emailOfPersonKey(key)).toBe('ann.smith+leads@example.com');
    expect(personHref('Ann@example.com')).toBe(`/admin/leads/${personKeyOf('ann@example.com')}`);
  });

  it('round-trips addresses outside ASCII', () => {
    expect(emailOfPersonKey(personKeyOf('zoë@exämple.com'))).toBe('zoë@exämple.com');
  });

  it('refuses anything that is not the canonical key of an address', () => {
    const upper = btoa('Ann@Example.com').replace(/=+$/, '');
    for (const bad of [undefined, '', 'new', 'no-such-record-7f3a9c', `${personKeyOf('a@b.c')}=`, 'YUBiLmM+', upper, btoa('not an email'), btoa('<b>@x'), 'x'.repeat(500), '%E2%80%AE']) {
      expect(emailOfPersonKey(bad), String(bad)).toBeUndefined();
    }
    // Invalid UTF-8 bytes.
    expect(emailOfPersonKey(btoa('\xff@\xfe').replace(/=+$/, ''))).toBeUndefined();
  });
});

describe('list URL state', () => {
  it('keeps known values and drops the rest', () => {
    expect(peopleQueryOf(new URLSearchParams('q=%20ann%00x%20&kind=chat-lead&sort=events&page=3'))).toEqual({ q: 'ann x', kind: 'chat-lead', stage: '', owner: '', due: false, sort: 'events', page: 3 });
    expect(peopleQueryOf(new URLSearchParams('kind=<b>&sort=drop&page=-1&stage=won&owner=<script>&due=yes'))).toEqual({ q: '', kind: '', stage: '', owner: '', due: false, sort: 'recent', page: 1 });
    expect(peopleQueryOf(new URLSearchParams('stage=call-booked&owner=me&due=1&sort=follow-up'))).toMatchObject({ stage: 'call-booked', owner: 'me', due: true, sort: 'follow-up' });
    expect(peopleQueryOf(new URLSearchParams('owner=usr_AB-12')).owner).toBe('usr_AB-12');
    expect(peopleQueryOf(new URLSearchParams('page=1e3')).page).toBe(1);
    expect(peopleQueryOf(new URLSearchParams(`q=${'a'.repeat(500)}`)).q).toHaveLength(100);
  });

  it('builds short links (defaults left out)', () => {
    expect(peopleSearch({ q: '', kind: '', sort: 'recent', page: 1 })).toBe('');
    expect(peopleSearch({ q: 'a&b', kind: 'sign-up', sort: 'first', page: 2 })).toBe('?q=a%26b&kind=sign-up&sort=first&page=2');
    expect(peopleSearch({ stage: 'client', owner: 'none', due: true, sort: 'follow-up' })).toBe('?stage=client&owner=none&due=1&sort=follow-up');
    expect(peopleSearch({ stage: '', owner: '', due: false })).toBe('');
  });
});

describe('first source', () => {
  const none = { sourcePage: '', referrer: '', utmSource: '', utmMedium: '', utmCampaign: '' };
  it('is the UTM values, else the referrer host, else direct', () => {
    expect(firstSourceLabel({ ...none, utmSource: 'newsletter', utmCampaign: 'spring', referrer: 'https://x.example' })).toBe('newsletter / spring');
    expect(firstSourceLabel({ ...none, referrer: 'https://WWW.Google.com/search?q=1' })).toBe('www.google.com');
    expect(firstSourceLabel({ ...none, referrer: 'javascript:alert(1)' })).toBe('Direct');
    expect(firstSourceLabel(none)).toBe('Direct');
    expect(referrerHostOf('https://user@evil.example/')).toBe('');
  });
});

describe('mergeTimeline', () => {
  interface E {
    at: Date;
    id: string;
  }
  const e = (ms: number, id: string): E => ({ at: new Date(ms), id });
  const byId = (a: E, b: E) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

  /** A source read as the server reads it: newest first, `limit` rows strictly before the cursor. */
  const read = (all: E[], before: Date | undefined, limit: number): SourcePage<E> => {
    const rows = all.filter((x) => !before || x.at < before).sort((a, b) => b.at.getTime() - a.at.getTime() || byId(a, b));
    return { rows: rows.slice(0, limit), truncated: rows.length > limit };
  };

  it('orders newest first across sources, ties by id', () => {
    const page = mergeTimeline([{ rows: [e(5, 'a'), e(1, 'b')], truncated: false }, { rows: [e(5, 'z'), e(3, 'c')], truncated: false }], 10, byId);
    expect(page.entries.map((x) => x.id)).toEqual(['z', 'a', 'c', 'b']);
    expect(page.before).toBeUndefined();
  });

  it('keeps only what every source returned completely', () => {
    // Source A stopped at 50 (more exist): B's entry at 40 might have older A entries above it.
    const page = mergeTimeline([{ rows: [e(90, 'a1'), e(50, 'a2')], truncated: true }, { rows: [e(70, 'b1'), e(40, 'b2')], truncated: false }], 10, byId);
    expect(page.entries.map((x) => x.id)).toEqual(['a1', 'b1']);
    expect(page.before?.getTime()).toBe(70);
  });

  it('pages through many sources with shared milliseconds, never skipping or repeating', () => {
    const a = Array.from({ length: 97 }, (_, i) => e(Math.floor(i / 4), `a${String(i).padStart(3, '0')}`));
    const b = Array.from({ length: 41 }, (_, i) => e(i * 2, `b${String(i).padStart(3, '0')}`));
    const c = [e(10, 'c1'), e(10, 'c2'), e(10, 'c3')];
    const seen: string[] = [];
    let before: Date | undefined;
    for (let guard = 0; guard < 100; guard += 1) {
      const page = mergeTimeline([read(a, before, 8), read(b, before, 8), read(c, before, 8)], 7, byId);
      expect(page.entries.length).toBeLessThanOrEqual(8);
      // Newest first within the page, and older than the previous page.
      const times = page.entries.map((x) => x.at.getTime());
      expect(times).toEqual([...times].sort((x, y) => y - x));
      if (before) expect(Math.max(...times)).toBeLessThan(before.getTime());
      seen.push(...page.entries.map((x) => x.id));
      before = page.before;
      if (!before) break;
    }
    expect(seen.sort()).toEqual([...a, ...b, ...c].map((x) => x.id).sort());
  });

  it('never cuts inside a millisecond', () => {
    const page = mergeTimeline([{ rows: [e(9, 'a'), e(5, 'b'), e(5, 'c'), e(5, 'd'), e(1, 'e')], truncated: false }], 2, byId);
    expect(page.entries.map((x) => x.id)).toEqual(['a']);
    expect(page.before?.getTime()).toBe(9);
  });

  it('shows a millisecond larger than the limit whole rather than getting stuck', () => {
    const same = Array.from({ length: 5 }, (_, i) => e(5, `s${i}`));
    const page = mergeTimeline([{ rows: same, truncated: false }], 2, byId);
    expect(page.entries).toHaveLength(5);
    expect(page.before).toBeUndefined();
  });
});

describe('page visits and days', () => {
  type Item = { type: 'page'; row: PageTimeRow } | { type: 'other'; at: Date };
  const pt = (iso: string, pagePath: string, durationMs: number, sessionId = 's1'): Item => ({ type: 'page', row: { at: new Date(iso), pagePath, durationMs, sessionId } });
  const rowOf = (i: Item) => (i.type === 'page' ? i.row : undefined);

  it('joins consecutive saves of one page in one tab into a visit with the summed time', () => {
    // Newest first, as the timeline lists them.
    const items: Item[] = [
      pt('2026-11-20T10:02:00Z', '/pricing', 10_000),
      pt('2026-11-20T10:01:00Z', '/services', 30_000),
      pt('2026-11-20T10:00:30Z', '/services', 30_000),
      pt('2026-11-20T10:00:00Z', '/services', 30_000, 's2'),
      { type: 'other', at: new Date('2026-11-20T09:59:00Z') },
      pt('2026-11-20T09:58:00Z', '/pricing', 5_000),
      pt('2026-11-20T09:57:00Z', '/pricing', 5_000),
    ];
    const out = groupPageVisits(items, rowOf);
    expect(out.map((x) => ('saves' in x ? `${x.pagePath} ${x.durationMs} ${x.saves}` : 'other'))).toEqual([
      '/pricing 10000 1',
      '/services 60000 2',
      '/services 30000 1', // another tab
      'other',
      '/pricing 10000 2',
    ]);
    const services = out[1] as { at: Date; until: Date };
    expect(services.at.toISOString()).toBe('2026-11-20T10:00:30.000Z');
    expect(services.until.toISOString()).toBe('2026-11-20T10:01:30.000Z');
  });

  it('groups entries by their day in the site’s zone, in order', () => {
    const entries = [{ at: new Date('2026-11-21T00:10:00Z') }, { at: new Date('2026-11-20T23:59:00Z') }, { at: new Date('2026-11-20T00:00:00Z') }];
    expect(groupByDayIn(entries, 'UTC').map((d) => [d.day, d.entries.length])).toEqual([
      ['2026-11-21', 1],
      ['2026-11-20', 2],
    ]);
    // In Berlin 23:59 UTC is already the 21st; in New York 00:10 UTC is still the 20th.
    expect(groupByDayIn(entries, 'Europe/Berlin').map((d) => [d.day, d.entries.length])).toEqual([
      ['2026-11-21', 2],
      ['2026-11-20', 1],
    ]);
    expect(groupByDayIn(entries, 'America/New_York').map((d) => [d.day, d.entries.length])).toEqual([
      ['2026-11-20', 2],
      ['2026-11-19', 1],
    ]);
  });

  it('words durations, mail kinds and reads cursors', () => {
    expect(durationInWords(1_400)).toBe('1 s');
    expect(durationInWords(185_000)).toBe('3 min 05 s');
    expect(durationInWords(3_720_000)).toBe('1 h 02 min');
    expect(mailKindLabel('audit-confirmation')).toBe('Audit confirmation');
    expect(cursorOf('1763630000000')?.getTime()).toBe(1763630000000);
    for (const bad of [null, '', 'abc', '-5', '1e9', '9'.repeat(20)]) expect(cursorOf(bad)).toBeUndefined();
  });
});

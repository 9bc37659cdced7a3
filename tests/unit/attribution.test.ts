/**
 * The visit's attribution in session storage (src/features/attribution/store.ts), with a fake storage:
 * the landing page is kept for the visit, a new campaign click replaces it, the referrer is another
 * site's origin only, blocked storage never throws; and the lead-event rules (src/shared/lead-events.ts):
 * what a browser may send, the overview's periods, zero-filled days and source labels.
 */
import { describe, expect, it } from 'vitest';
import { ATTRIBUTION_INPUTS } from '../../src/features/attribution/fields';
import { ATTRIBUTION_STORAGE_KEY, captureAttribution, fillAttributionInputs, readAttribution, tagBookingLink } from '../../src/features/attribution/store';
import { ATTRIBUTION_FIELDS } from '../../src/shared/schemas/audit';
import {
  attributionOf,
  changeInWords,
  dayTable,
  leadEventBodySchema,
  leadPeriodOf,
  leadPeriodRange,
  periodDays,
  sourceLabel,
} from '../../src/shared/lead-events';

class FakeStorage {
  readonly map = new Map<string, string>();
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
}

const blocked = {
  getItem(): string | null {
    throw new DOMException('blocked', 'SecurityError');
  },
  setItem() {
    throw new DOMException('quota', 'QuotaExceededError');
  },
};

const at = (pathname: string, search = '') => ({ pathname, search });
const HOST = 'agency.example';

describe('captureAttribution / readAttribution', () => {
  it('keeps the landing page, its UTM parameters and the referring site, and nothing else', () => {
    const s = new FakeStorage();
    captureAttribution(at('/', '?utm_source=newsletter&utm_medium=email&utm_campaign=spring&utm_term=crm&utm_content=top&gclid=x'), 'https://www.google.com/search?q=my+name', HOST, s);
    expect(readAttribution(s)).toEqual({
      sourcePage: '/',
      referrer: 'https://www.google.com',
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'spring',
      utmTerm: 'crm',
      utmContent: 'top',
    });
  });

  it('records the first page once: later pages of the visit do not replace it', () => {
    const s = new FakeStorage();
    captureAttribution(at('/articles/a', '?utm_source=linkedin'), '', HOST, s);
    captureAttribution(at('/free-audit'), `https://${HOST}/articles/a`, HOST, s);
    expect(readAttribution(s)).toEqual({ sourcePage: '/articles/a', utmSource: 'linkedin' });
  });

  it('a later page with UTM parameters (a new campaign click) replaces it', () => {
    const s = new FakeStorage();
    captureAttribution(at('/'), 'https://news.example/item', HOST, s);
    captureAttribution(at('/packages', '?utm_campaign=winter'), '', HOST, s);
    expect(readAttribution(s)).toEqual({ sourcePage: '/packages', utmCampaign: 'winter' });
  });

  it('a page of this site as referrer, or a non-web referrer, is not a source', () => {
    const s = new FakeStorage();
    captureAttribution(at('/services'), `https://${HOST}/`, HOST, s);
    expect(readAttribution(s)).toEqual({ sourcePage: '/services' });
    const t = new FakeStorage();
    captureAttribution(at('/'), 'android-app://com.example', HOST, t);
    expect(readAttribution(t)).toEqual({ sourcePage: '/' });
  });

  it('cuts long values and ignores empty ones', () => {
    const s = new FakeStorage();
    captureAttribution(at('/', `?utm_source=${'x'.repeat(500)}&utm_medium=`), '', HOST, s);
    const a = readAttribution(s);
    expect(a.utmSource).toHaveLength(100); // UTM_MAX_LENGTH, the most the server keeps
    expect(a).not.toHaveProperty('utmMedium');
  });

  it('never throws when storage is blocked, and reads {} then', () => {
    expect(() => captureAttribution(at('/', '?utm_source=a'), '', HOST, blocked)).not.toThrow();
    expect(readAttribution(blocked)).toEqual({});
  });

  it('reads {} when what is stored is not an object (the server cleans the values of one)', () => {
    const s = new FakeStorage();
    s.setItem(ATTRIBUTION_STORAGE_KEY, '[1,2]');
    expect(readAttribution(s)).toEqual({});
    s.setItem(ATTRIBUTION_STORAGE_KEY, '{broken');
    expect(readAttribution(s)).toEqual({});
  });

  it('names the hidden inputs as the free-audit form does', () => {
    expect(Object.fromEntries(ATTRIBUTION_INPUTS)).toEqual(ATTRIBUTION_FIELDS);
  });

  it('carries the visit’s UTM values on a book-a-call link, unless the link names its own or is no URL', () => {
    const links = [{ href: 'https://cal.com/agency/discovery' }, { href: 'https://calendly.com/agency/30min?month=2026-12' }, { href: 'https://cal.com/x?utm_source=site' }, { href: 'not a url' }];
    for (const link of links) tagBookingLink(link as HTMLAnchorElement, { sourcePage: '/', referrer: 'https://news.example', utmSource: 'newsletter', utmCampaign: 'winter sale' });
    expect(links.map((l) => l.href)).toEqual([
      'https://cal.com/agency/discovery?utm_source=newsletter&utm_campaign=winter+sale',
      'https://calendly.com/agency/30min?month=2026-12&utm_source=newsletter&utm_campaign=winter+sale',
      'https://cal.com/x?utm_source=site',
      'not a url',
    ]);
    // A visit without UTM values leaves the link as it is.
    const plain = { href: 'https://cal.com/agency/discovery' };
    tagBookingLink(plain as HTMLAnchorElement, { sourcePage: '/' });
    expect(plain.href).toBe('https://cal.com/agency/discovery');
  });

  it('fills the hidden inputs by their data-attribution key, emptying the ones the visit has no value for', () => {
    const inputs = ATTRIBUTION_INPUTS.map(([key, name]) => ({ name, value: 'stale', dataset: { attribution: key } }));
    const root = { querySelectorAll: () => inputs } as unknown as ParentNode;
    fillAttributionInputs(root, { sourcePage: '/', utmSource: 'newsletter' });
    expect(Object.fromEntries(inputs.map((i) => [i.name, i.value]))).toEqual({
      sourcePage: '/',
      referrer: '',
      utm_source: 'newsletter',
      utm_medium: '',
      utm_campaign: '',
      utm_term: '',
      utm_content: '',
    });
  });
});

describe('what a browser may send to /api/lead-events', () => {
  it('accepts a book-call click with its page and cleans the attribution', () => {
    const parsed = leadEventBodySchema.parse({
      kind: 'book-call',
      page: '/services/seo',
      attribution: { sourcePage: '/', referrer: 'https://news.example/a/path?q=1', utmSource: ` ${'n'.repeat(100)} `, utmCampaign: 'n'.repeat(101), utmMedium: 7, role: 'admin' },
      extra: 'ignored',
    });
    expect(parsed).toEqual({ kind: 'book-call', page: '/services/seo', attribution: { sourcePage: '/', referrer: 'https://news.example', utmSource: 'n'.repeat(100) } });
  });

  it('refuses the other kinds, pages that are not site paths, and markup in the page', () => {
    for (const kind of ['sign-up', 'audit-request', 'chat-lead', 'BOOK-CALL', '', undefined]) {
      expect(leadEventBodySchema.safeParse({ kind, page: '/' }).success).toBe(false);
    }
    for (const page of ['https://evil.example/', '//evil.example', 'relative', '/<script>', '/a b', '/x'.repeat(1100), 5]) {
      expect(leadEventBodySchema.safeParse({ kind: 'book-call', page }).success).toBe(false);
    }
  });

  it('attribution that is not an object is dropped, not refused', () => {
    expect(attributionOf('utm_source=x')).toEqual({});
    expect(attributionOf(['x'])).toEqual({});
    expect(leadEventBodySchema.parse({ kind: 'book-call', page: '/', attribution: null }).attribution).toEqual({});
  });
});

describe('the overview period', () => {
  it('reads ?days= as 7, 30 or 90 (else 30)', () => {
    expect(leadPeriodOf(new URLSearchParams('days=7'))).toBe(7);
    expect(leadPeriodOf(new URLSearchParams('days=90'))).toBe(90);
    for (const q of ['', 'days=8', 'days=abc', 'days=-7', 'days=7.0x']) expect(leadPeriodOf(new URLSearchParams(q))).toBe(30);
  });

  it('covers whole UTC days ending today, after the previous period of the same length', () => {
    const r = leadPeriodRange(7, new Date('2026-11-25T23:30:00-05:00')); // 04:30 UTC on the 26th
    expect(r.end.toISOString()).toBe('2026-11-27T00:00:00.000Z');
    expect(r.start.toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect(r.previousStart.toISOString()).toBe('2026-11-13T00:00:00.000Z');
    expect(periodDays(r)).toEqual(['2026-11-26', '2026-11-25', '2026-11-24', '2026-11-23', '2026-11-22', '2026-11-21', '2026-11-20']);
  });

  it('fills every day and kind, ignoring rows outside the period or of unknown kinds', () => {
    const r = leadPeriodRange(7, new Date('2026-11-25T12:00:00Z'));
    const rows = dayTable(r, [
      { day: '2026-11-25', kind: 'book-call', n: 2 },
      { day: '2026-11-25', kind: 'sign-up', n: 1 },
      { day: '2026-11-19', kind: 'sign-up', n: 1 },
      { day: '2026-11-01', kind: 'sign-up', n: 9 },
      { day: '2026-11-24', kind: 'other', n: 4 },
    ]);
    expect(rows).toHaveLength(7);
    expect(rows[0]).toEqual({ day: '2026-11-25', counts: { 'audit-request': 0, 'chat-lead': 0, 'sign-up': 1, 'book-call': 2, 'call-booked': 0, 'report-opened': 0 }, total: 3 });
    expect(rows.at(-1)).toEqual({ day: '2026-11-19', counts: { 'audit-request': 0, 'chat-lead': 0, 'sign-up': 1, 'book-call': 0, 'call-booked': 0, 'report-opened': 0 }, total: 1 });
    expect(rows.reduce((s, d) => s + d.total, 0)).toBe(4);
  });

  it('says the change from the previous period and names sources', () => {
    expect([changeInWords(5, 2), changeInWords(2, 5), changeInWords(3, 3)]).toEqual(['+3', '\u22123', '\u00b10']);
    expect(sourceLabel({ utmSource: 'newsletter', utmMedium: 'email', utmCampaign: 'spring', referrerHost: '' })).toBe('newsletter / email / spring');
    expect(sourceLabel({ utmSource: '', utmMedium: '', utmCampaign: 'spring', referrerHost: '' })).toBe('spring');
    expect(sourceLabel({ utmSource: '', utmMedium: '', utmCampaign: '', referrerHost: 'news.example' })).toBe('news.example');
    expect(sourceLabel({ utmSource: '', utmMedium: '', utmCampaign: '', referrerHost: '' })).toBe('Direct');
    expect(sourceLabel({ utmSource: '(other)', utmMedium: '', utmCampaign: '(other)', referrerHost: '' })).toBe('Other sources');
  });
});

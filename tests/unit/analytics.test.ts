/**
 * First-party analytics rules (src/shared/analytics.ts): what a visit beacon may carry, device classes
 * by viewport width, the referrer's host (this site's own = not a visit), UTM cleaning, the day a view
 * counts on (UTC, or the site's zone) and the visitor hash input.
 */
import { describe, expect, it } from 'vitest';
import {
  classifyView,
  cleanUtm,
  deviceOf,
  referrerHostOf,
  visitBeaconSchema,
  visitorHashInput,
  UTM_MAX_LENGTH,
} from '../../src/shared/analytics';

const SITE = ['agency.example', '127.0.0.1'];
const beacon = (over: Record<string, unknown> = {}) => ({ p: '/services', r: '', w: 1280, ...over });
const parse = (over: Record<string, unknown> = {}) => visitBeaconSchema.safeParse(beacon(over));

describe('visit beacon schema', () => {
  it('accepts what the browser sends, UTM values cleaned and the referrer defaulted', () => {
    const ok = visitBeaconSchema.parse({ p: '/article/hello%20world', s: ' Newsletter ', m: 'EMAIL', w: 390 });
    expect(ok).toEqual({ p: '/article/hello%20world', r: '', s: 'newsletter', m: 'email', c: '', w: 390 });
  });

  it.each([
    ['markup in the path', { p: '/<script>alert(1)</script>' }],
    ['a quote in the path', { p: '/a"onload=x' }],
    ['white space in the path', { p: '/a b' }],
    ['no leading slash', { p: 'services' }],
    ['another site (protocol-relative)', { p: '//evil.example/x' }],
    ['a backslash', { p: '/\\evil.example' }],
    ['an empty path', { p: '' }],
    ['a path over 512 characters', { p: `/${'a'.repeat(512)}` }],
    ['a control character', { p: '/a\u0007b' }],
    ['a number for the path', { p: 42 }],
    ['a negative width', { w: -1 }],
    ['a huge width', { w: 10_001 }],
    ['a fractional width', { w: 1280.5 }],
    ['a width as text', { w: '1280' }],
    ['no width', { w: undefined }],
    ['an unknown field', { userId: 'someone' }],
    ['a referrer over 1024 characters', { r: `https://x.example/${'a'.repeat(1024)}` }],
    ['a UTM value over 500 characters', { s: 'a'.repeat(501) }],
    ['a UTM value that is not text', { c: ['spring'] }],
  ])('refuses %s', (_name, over) => {
    expect(parse(over).success).toBe(false);
  });

  it('refuses what is not an object', () => {
    for (const value of [null, [], 'x', 1]) expect(visitBeaconSchema.safeParse(value).success).toBe(false);
  });

  it('accepts the largest path and the width limits', () => {
    expect(parse({ p: `/${'a'.repeat(511)}` }).success).toBe(true);
    expect(parse({ w: 0 }).success).toBe(true);
    expect(parse({ w: 10_000 }).success).toBe(true);
  });
});

describe('deviceOf', () => {
  it('mobile under 768 px, tablet under 1024 px, desktop from 1024 px', () => {
    expect([0, 390, 767, 768, 1023, 1024, 2560].map(deviceOf)).toEqual(['mobile', 'mobile', 'mobile', 'tablet', 'tablet', 'desktop', 'desktop']);
  });
});

describe('referrerHostOf', () => {
  it('is the lower-case host without www. for another site, without path, query or port', () => {
    expect(referrerHostOf('https://WWW.Google.com/search?q=agency', SITE)).toBe('google.com');
    expect(referrerHostOf('http://news.example:8080/a/b', SITE)).toBe('news.example');
    expect(referrerHostOf('https://www2.example.org/', SITE)).toBe('www2.example.org');
  });

  it('is null (an internal navigation, not a visit) for this site, in any spelling', () => {
    expect(referrerHostOf('https://agency.example/services', SITE)).toBeNull();
    expect(referrerHostOf('https://www.agency.example/', SITE)).toBeNull();
    expect(referrerHostOf('http://127.0.0.1:4512/article/x', SITE)).toBeNull();
    expect(referrerHostOf('https://agency.example/', ['www.AGENCY.example'])).toBeNull();
  });

  it('is empty (direct) for no referrer or one that is not a web address', () => {
    for (const r of ['', 'not a url', 'javascript:alert(1)', 'android-app://com.example', 'data:text/html,<b>x</b>']) {
      expect(referrerHostOf(r, SITE), r).toBe('');
    }
  });
});

describe('cleanUtm', () => {
  it('keeps a safe value (letters, digits, - _ . space, up to 100) trimmed and lower-cased', () => {
    expect(cleanUtm('  Spring Sale ')).toBe('spring sale');
    expect(cleanUtm('LinkedIn_Ads-2026.q1')).toBe('linkedin_ads-2026.q1');
    expect(cleanUtm('Été')).toBe('été');
    expect(cleanUtm('A'.repeat(UTM_MAX_LENGTH))).toBe('a'.repeat(UTM_MAX_LENGTH));
  });

  it('drops anything else, rather than repair it: no URL, markup, sentence punctuation or control character reaches the overview', () => {
    for (const value of [
      'A'.repeat(UTM_MAX_LENGTH + 1),
      'https://buy.example/now',
      'buy.example/now',
      'Call +1 555 0100!',
      '<b>x</b>',
      'spring\u0000sale',
      'news\u202eletter',
      '(other)',
      '\u0007\u0008',
      '   ',
      undefined,
    ]) {
      expect(cleanUtm(value), String(value)).toBe('');
    }
  });
});

describe('the day a view counts on', () => {
  const view = (at: string, zone?: string) => classifyView(visitBeaconSchema.parse(beacon()), SITE, new Date(at), zone).day;
  it('is the UTC calendar day by default, whatever the server’s zone', () => {
    expect(view('2026-11-25T23:59:59.999Z')).toBe('2026-11-25');
    expect(view('2026-11-26T00:00:00Z')).toBe('2026-11-26');
    expect(view('2026-11-26T01:30:00+02:00')).toBe('2026-11-25');
  });
  it('is the calendar day of the site’s zone when it has one (decision 032)', () => {
    // 23:30 UTC is already the next day in Berlin, and still the day before in New York at 03:30 UTC.
    expect(view('2026-11-25T23:30:00Z', 'Europe/Berlin')).toBe('2026-11-26');
    expect(view('2026-11-26T03:30:00Z', 'America/New_York')).toBe('2026-11-25');
    expect(view('2026-11-26T05:00:00Z', 'America/New_York')).toBe('2026-11-26');
  });
});

describe('visitorHashInput', () => {
  it('joins salt, address, user agent and host so that different inputs never join the same', () => {
    expect(visitorHashInput('salt', '203.0.113.7', 'UA', 'agency.example')).toBe('salt\n203.0.113.7\nUA\nagency.example');
    expect(visitorHashInput('s', '1.2.3.4', 'a b', 'h')).not.toBe(visitorHashInput('s', '1.2.3.4a', ' b', 'h'));
    expect(visitorHashInput('day1', '1.2.3.4', 'UA', 'h')).not.toBe(visitorHashInput('day2', '1.2.3.4', 'UA', 'h'));
  });
});

describe('classifyView', () => {
  const at = new Date('2026-11-25T10:00:00Z');
  it('an entry from another site carries its source; the page and device are counted', () => {
    const view = classifyView(visitBeaconSchema.parse(beacon({ r: 'https://www.linkedin.com/feed', s: 'LinkedIn', c: 'Spring', w: 800 })), SITE, at);
    expect(view).toEqual({
      day: '2026-11-25',
      path: '/services',
      device: 'tablet',
      source: { referrerHost: 'linkedin.com', utmSource: 'linkedin', utmMedium: '', utmCampaign: 'spring' },
    });
  });

  it('a direct view is an entry with an empty source; an internal one is no entry', () => {
    expect(classifyView(visitBeaconSchema.parse(beacon()), SITE, at).source).toEqual({ referrerHost: '', utmSource: '', utmMedium: '', utmCampaign: '' });
    expect(classifyView(visitBeaconSchema.parse(beacon({ r: 'https://agency.example/' })), SITE, at).source).toBeNull();
  });
});

/** The users list's URL state and the person's page's summaries (src/shared/admin-users.ts). */
import { describe, expect, it } from 'vitest';
import { csvCell } from '../../src/shared/csv';
import {
  authorNameOf,
  displayNameOf,
  isFilteredUserList,
  maskIp,
  parseUserListQuery,
  safeWebsiteHref,
  summarizeUserAgent,
  USER_CSV_HEADER,
  userCsvRow,
  userListSearch,
} from '../../src/shared/admin-users';

const parse = (qs: string) => parseUserListQuery(new URLSearchParams(qs));

describe('the list query', () => {
  it('reads every known value and falls back on anything else', () => {
    expect(parse('q=%20Ada%20&role=admin&verified=unverified&status=disabled&sort=email&page=3')).toEqual({
      q: 'Ada',
      role: 'admin',
      verified: 'unverified',
      status: 'disabled',
      sort: 'email',
      page: 3,
    });
    expect(parse('role=root&verified=1&status=<b>&sort=drop table&page=-1')).toEqual({ q: '', role: '', verified: '', status: '', sort: 'newest', page: 1 });
    expect(parse('page=1.5').page).toBe(1);
    expect(parse('page=100001').page).toBe(1);
    expect(parse(`q=${'x'.repeat(300)}`).q).toHaveLength(100);
  });

  it('writes the same state back as a short URL (defaults left out) that parses to it', () => {
    const state = parse('q=a&b&role=user&sort=name&page=2');
    expect(userListSearch(state)).toBe('?q=a&role=user&sort=name&page=2');
    expect(parse(userListSearch(state).slice(1))).toEqual(state);
    expect(userListSearch(parse(''))).toBe('');
    expect(userListSearch({ q: 'a&b=c' })).toBe('?q=a%26b%3Dc');
  });

  it('says whether a filter is on (the order alone is not one)', () => {
    expect(isFilteredUserList(parse('sort=email&page=2'))).toBe(false);
    expect(isFilteredUserList(parse('verified=verified'))).toBe(true);
  });
});

describe('summaries', () => {
  it('hides the host part of an address', () => {
    expect(maskIp('203.0.113.57')).toBe('203.0.113.x');
    expect(maskIp('::ffff:198.51.100.7')).toBe('198.51.100.x');
    expect(maskIp('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3:x');
    expect(maskIp('2001:db8::1')).toBe('2001:db8:x');
    expect(maskIp('::1')).toBe('0:x');
    expect(maskIp(null)).toBe('Unknown');
    expect(maskIp('<script>')).toBe('Unknown');
  });

  it('names the browser and system of a User-Agent', () => {
    const mac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
    expect(summarizeUserAgent(mac)).toBe('Chrome on macOS');
    expect(summarizeUserAgent('Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1')).toBe('Safari on iPhone');
    expect(summarizeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36 Edg/124.0')).toBe('Edge on Windows');
    expect(summarizeUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0')).toBe('Firefox on Linux');
    expect(summarizeUserAgent('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36')).toBe('Chrome on Android');
    expect(summarizeUserAgent('curl/8.5.0')).toBe('Other client');
    expect(summarizeUserAgent('')).toBe('Unknown device');
  });

  it('links only http(s) websites', () => {
    expect(safeWebsiteHref('https://ada.example/path')).toBe('https://ada.example/path');
    expect(safeWebsiteHref('javascript:alert(1)')).toBeUndefined();
    expect(safeWebsiteHref('data:text/html,<b>x</b>')).toBeUndefined();
    expect(safeWebsiteHref('not a url')).toBeUndefined();
    expect(safeWebsiteHref(null)).toBeUndefined();
  });

  it('shows the email for an account without a name', () => {
    expect(displayNameOf({ name: '  ', email: 'a@example.com' })).toBe('a@example.com');
    expect(displayNameOf({ name: 'Ada Lovelace', email: 'a@example.com' })).toBe('Ada Lovelace');
  });

  it('gives a CSV row per header column, formula-safe through csvCell', () => {
    const row = userCsvRow({
      id: 'u1',
      name: '=1+1',
      email: 'a@example.com',
      role: 'admin',
      emailVerified: true,
      banned: false,
      banReason: null,
      createdAt: new Date('2025-03-14T09:30:00Z'),
      signupSource: '/pricing',
      phone: null,
      website: null,
    });
    expect(row).toHaveLength(USER_CSV_HEADER.length);
    expect(row.map(csvCell)).toEqual(["'=1+1", 'a@example.com', 'admin', 'yes', 'no', '', '2025-03-14T09:30:00.000Z', '/pricing', '', '', 'u1']);
  });
});

describe("a new article's author", () => {
  it('is the signed-in admin by name, never by email address, within the author-name limit', () => {
    expect(authorNameOf({ name: '  Ada   Lovelace ', firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
    expect(authorNameOf({ name: '', firstName: 'Ada', lastName: '' })).toBe('Ada');
    expect(authorNameOf({ name: '' })).toBe('');
    expect(authorNameOf(undefined)).toBe('');
    expect(authorNameOf({ name: 'x'.repeat(300) })).toHaveLength(120);
  });
});

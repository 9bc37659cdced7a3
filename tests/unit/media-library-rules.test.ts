/** The media library's shared rules (src/shared/media-library.ts): sizes and messages people read, URL state. */
import { describe, expect, it } from 'vitest';
import {
  fileTooLargeMessage,
  formatBytes,
  inUseMessage,
  isMediaApiPath,
  mediaIdOfValue,
  mediaListHref,
  parseMediaListQuery,
  quotaExceededMessage,
  storageMessageForStatus,
  storageRefusal,
} from '../../src/shared/media-library';

const id = '0123456789abcdef0123456789abcdef';

describe('sizes in words', () => {
  it('uses binary units with at most one decimal', () => {
    expect([0, 1023, 1024, 1536, 10 * 1024 * 1024, 20_971_520, 524_288_000, 1.25 * 1024 ** 3].map(formatBytes)).toEqual([
      '0 bytes',
      '1023 bytes',
      '1 KB',
      '1.5 KB',
      '10 MB',
      '20 MB',
      '500 MB',
      '1.3 GB',
    ]);
  });

  it('a file over the limit hears its size and the limit', () => {
    expect(fileTooLargeMessage(20 * 1024 * 1024)).toMatch(/^This file is 20 MB: images can be at most 10 MB\./);
    expect(fileTooLargeMessage()).toBe('The file is too large: images can be at most 10 MB.');
    expect(quotaExceededMessage(499 * 1024 * 1024, 500 * 1024 * 1024, 2 * 1024 * 1024)).toMatch(/^The media library is full: 499 MB of 500 MB used, and this image needs 2 MB\./);
  });
});

describe('the storage catalogue', () => {
  it('maps the refusals made before the media routes run', () => {
    expect(storageRefusal(401, 'No user logged in').code).toBe('storage/unauthenticated');
    expect(storageRefusal(403, 'Email not verified yet')).toEqual({ code: 'storage/unauthorized', message: 'Email not verified yet' });
    expect(storageRefusal(403, '')).toEqual({ code: 'storage/unauthorized', message: 'Only an admin can manage images.' });
    expect(storageRefusal(413, 'The request is too large.')).toEqual({ code: 'storage/file-too-large', message: 'The file is too large: images can be at most 10 MB.' });
    expect(storageRefusal(400, 'The request body is not valid JSON.')).toEqual({ code: 'storage/invalid-request', message: 'The request body is not valid JSON.' });
    expect([401, 402, 403, 404, 413, 502].map(storageMessageForStatus)).toEqual([
      expect.stringContaining('signed out'),
      expect.stringContaining('full'),
      'Only an admin can manage images.',
      expect.stringContaining('no longer in the media library'),
      expect.stringContaining('at most 10 MB'),
      expect.stringContaining('Please try again'),
    ]);
  });

  it('knows its own paths only', () => {
    expect(['/api/admin/media', `/api/admin/media/${id}`].every(isMediaApiPath)).toBe(true);
    expect(['/api/admin/mediax', '/api/admin', '/media/x.webp'].some(isMediaApiPath)).toBe(false);
  });
});

describe('where an image is used', () => {
  const use = (n: number) => ({ kind: 'Service', title: `S${n}`, field: 'picture' });
  it('names every place, then how many more', () => {
    expect(inUseMessage([use(1)])).toBe('This image cannot be deleted: it is used by Service “S1” (picture). Replace it there first.');
    expect(inUseMessage([use(1), { kind: 'Site texts', title: '', field: 'hero.image' }])).toBe(
      'This image cannot be deleted: it is used by Service “S1” (picture) and Site texts (hero.image). Replace it there first.',
    );
    expect(inUseMessage([1, 2, 3, 4, 5, 6, 7].map(use))).toMatch(/S4” \(picture\), Service “S5” \(picture\) and 2 more\. Replace it there first\.$/);
  });
});

describe('URL state and values', () => {
  it('parses ?q=&page= forgivingly and builds short links', () => {
    expect(parseMediaListQuery(new URLSearchParams('q=%20team%20&page=3'))).toEqual({ q: 'team', page: 3 });
    for (const bad of ['page=0', 'page=-1', 'page=1.5', 'page=abc', 'page=9999999']) expect(parseMediaListQuery(new URLSearchParams(bad)).page).toBe(1);
    expect(parseMediaListQuery(new URLSearchParams(`q=${'x'.repeat(500)}`)).q).toHaveLength(100);
    expect(mediaListHref('/admin/media', { q: '', page: 1 })).toBe('/admin/media');
    expect(mediaListHref('/admin/media', { q: 'a b', page: 2 })).toBe('/admin/media?q=a+b&page=2');
  });

  it('finds the library image behind a field value, variants included', () => {
    expect(mediaIdOfValue(`/media/${id}.webp`)).toBe(id);
    expect(mediaIdOfValue(`/media/${id}-w400.webp`)).toBe(id);
    expect(mediaIdOfValue('https://example.com/a.jpg')).toBeUndefined();
    expect(mediaIdOfValue('')).toBeUndefined();
  });
});

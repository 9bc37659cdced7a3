/** The admin's import page: file names, and what each answer of the import route says to the admin. */
import { describe, expect, it } from 'vitest';
import { fileProblem, importOutcome } from '../../src/features/admin-content-transfer/outcome';
import { cleanFileName, contentFileLimitBytes, contentFileName, MAX_CONTENT_FILE_BYTES } from '../../src/shared/content-transfer';

const MAX = contentFileLimitBytes(524_288_000);

describe('file names', () => {
  it('the download is named by its date', () => {
    expect(contentFileName(new Date('2025-03-14T23:59:00Z'))).toBe('site-content-2025-03-14.json');
  });

  it('an uploaded name is shown without paths, control characters or markup', () => {
    expect(cleanFileName(encodeURIComponent('backup 2025.json'))).toBe('backup 2025.json');
    expect(cleanFileName('..%2F..%2Fetc%2Fpasswd')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\me\\site.json')).toBe('site.json');
    expect(cleanFileName('%3Cimg%20src%3Dx%3E.json')).toBe('img src=x.json');
    expect(cleanFileName('a%0Ab.json')).toBe('ab.json');
    expect(cleanFileName('%E0%A4%A')).toBe('%E0%A4%A');
    expect(cleanFileName(null)).toBe('content file');
    expect(cleanFileName('x'.repeat(500))).toHaveLength(120);
  });
});

describe('fileProblem', () => {
  it('refuses an empty or oversize file before sending it', () => {
    expect(fileProblem({ name: 'a.json', size: 0 }, MAX)).toMatch(/a\.json is empty/);
    expect(fileProblem({ name: 'a.json', size: MAX + 1 }, MAX)).toBe('a.json is larger than 731 MB, the most this site imports.');
    expect(fileProblem({ name: 'a.json', size: MAX }, MAX)).toBeUndefined();
  });

  it('the limit is the records plus every image the media quota allows, in base64', () => {
    // The default quota (500 MB): 64 MiB of records and 4/3 of the quota.
    expect(MAX).toBe(64 * 1024 * 1024 + Math.ceil(524_288_000 / 3) * 4);
    expect(contentFileLimitBytes(0)).toBe(64 * 1024 * 1024);
    // However large the quota, a file never passes the route's declared ceiling.
    expect(contentFileLimitBytes(10 * 1024 ** 4)).toBe(MAX_CONTENT_FILE_BYTES);
  });
});

describe('importOutcome', () => {
  it('success, problems and refusals each say what happened', () => {
    expect(importOutcome(200, { ok: true, message: 'Imported 2 services.', activityId: 'id-1' }, 'a.json', MAX)).toEqual({
      kind: 'imported',
      message: 'Imported 2 services.',
      activityId: 'id-1',
    });
    const problems = [{ path: 'services[2].name', message: 'must not be empty' }, { nonsense: true }];
    expect(importOutcome(422, { ok: false, message: 'Nothing was imported: 1 problem in a.json.', problems }, 'a.json', MAX)).toEqual({
      kind: 'problems',
      message: 'Nothing was imported: 1 problem in a.json.',
      problems: [{ path: 'services[2].name', message: 'must not be empty' }],
    });
    expect(importOutcome(413, { code: 'REQUEST_TOO_LARGE' }, 'a.json', MAX)).toMatchObject({ kind: 'refused', message: expect.stringMatching(/larger than 731 MB, the most this site imports/) });
    expect(importOutcome(403, { message: 'You do not have access to this' }, 'a.json', MAX)).toMatchObject({ kind: 'refused', message: expect.stringMatching(/^You do not have access to this\. .*log in again/) });
    expect(importOutcome(400, { message: 'a.json is not valid JSON (…).' }, 'a.json', MAX)).toEqual({ kind: 'refused', message: 'a.json is not valid JSON (…).' });
  });

  it('a server failure or no answer is retried', () => {
    expect(importOutcome(500, undefined, 'a.json', MAX)).toEqual({ kind: 'retry' });
    expect(importOutcome(503, 'starting', 'a.json', MAX)).toEqual({ kind: 'retry' });
  });
});

import { describe, expect, it } from 'vitest';
import {
  coerceTimestamp,
  contentBundleSchema,
  describeIssue,
  fieldNameProblem,
  findFieldNameProblems,
  formatPath,
  mediaIdFromUrl,
  siteContentProblems,
} from '../../src/shared/content-bundle';

const envelope = { format: 'agency-site-content', version: 1 } as const;

function problemsOf(input: unknown): string[] {
  const parsed = contentBundleSchema.safeParse(input, { error: describeIssue });
  if (parsed.success) return [];
  return parsed.error.issues.flatMap((i) =>
    i.code === 'unrecognized_keys' ? i.keys.map((k) => `${formatPath([...i.path, k])}: unknown field`) : [`${formatPath(i.path)}: ${i.message}`],
  );
}

describe('field-name rule (seed section 5)', () => {
  it('accepts ordinary names, including ones with single or inner underscores', () => {
    for (const name of ['name', 'shortText', '_private', 'a__b', '__leading', 'trailing__', 'x.y', 'ünïcode']) {
      expect(fieldNameProblem(name), name).toBeUndefined();
    }
  });

  it('rejects empty names, names wrapped in double underscores, and ~ * / [ ]', () => {
    expect(fieldNameProblem('')).toMatch(/empty/);
    expect(fieldNameProblem('__name__')).toMatch(/begin and end/);
    expect(fieldNameProblem('__')).toMatch(/begin and end/);
    for (const name of ['a~b', 'a*b', 'a/b', 'a[0]', 'b]']) expect(fieldNameProblem(name), name).toMatch(/~ \* \/ \[ or \]/);
  });

  it('finds bad keys at any depth, with their path', () => {
    const problems = findFieldNameProblems({ ok: { 'bad/key': 1, list: [{ fine: 1 }, { '__x__': 2 }] }, '': 3 });
    expect(problems.map((p) => formatPath(p.path))).toEqual(['ok["bad/key"]', 'ok.list[1].__x__', '[""]']);
  });
});

describe('dates', () => {
  it('accepts ISO strings and both Firestore timestamp shapes', () => {
    expect(coerceTimestamp('2025-03-14T09:30:00.000Z')?.toISOString()).toBe('2025-03-14T09:30:00.000Z');
    expect(coerceTimestamp('2025-03-14')?.toISOString()).toBe('2025-03-14T00:00:00.000Z');
    expect(coerceTimestamp({ _seconds: 1_700_000_000, _nanoseconds: 250_000_000 })?.toISOString()).toBe('2023-11-14T22:13:20.250Z');
    expect(coerceTimestamp({ seconds: 1_700_000_000, nanoseconds: 0 })?.toISOString()).toBe('2023-11-14T22:13:20.000Z');
    expect(coerceTimestamp({ seconds: 1_700_000_000 })?.toISOString()).toBe('2023-11-14T22:13:20.000Z');
  });

  it('rejects text that is not a date, impossible dates, epoch numbers and odd objects', () => {
    for (const bad of ['last tuesday', '2025-13-45T00:00:00Z', '', 1_700_000_000, { _seconds: 'x' }, { seconds: 1, extra: 1 }, null]) {
      expect(coerceTimestamp(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });

  it('turns every accepted shape into a Date when a record is parsed', () => {
    const parsed = contentBundleSchema.parse({
      ...envelope,
      faqs: [{ id: 'f1', question: 'Q?', answer: '<p>A</p>', createdAt: { _seconds: 0, _nanoseconds: 0 } }],
    });
    expect(parsed.faqs?.[0]?.createdAt).toEqual(new Date(0));
  });
});

describe('record schema', () => {
  it('fills defaults so a minimal record is complete', () => {
    const parsed = contentBundleSchema.parse({ ...envelope, services: [{ id: 'svc', name: 'Reminders' }] });
    expect(parsed.services?.[0]).toEqual({
      id: 'svc',
      name: 'Reminders',
      picture: '',
      pictureAlt: '',
      price: null,
      shortText: '',
      description: '',
      benefits: [],
    });
  });

  it('rounds prices to cents and rejects negative ones', () => {
    const parsed = contentBundleSchema.parse({ ...envelope, packages: [{ id: 'p', name: 'P', priceSetup: 99.999, priceMonthly: null }] });
    expect(parsed.packages?.[0]).toMatchObject({ priceSetup: 100, priceMonthly: null });
    expect(problemsOf({ ...envelope, services: [{ id: 's', name: 'S', price: -5 }] })).toEqual(['services[0].price: must be at least 0']);
  });

  it('reports missing fields, unknown fields, bad ids and bad image URLs by position and field', () => {
    const problems = problemsOf({
      ...envelope,
      services: [
        { id: 'ok', name: 'Fine' },
        { name: 'No id' },
        { id: 'has space', name: 'x', shortTxt: 'typo', picture: 'javascript:alert(1)' },
      ],
      articles: [{ id: 'a', slug: 'a', title: 'T', tags: ['x'.repeat(51)] }],
    });
    expect(problems).toEqual([
      'services[1].id: is required',
      'services[2].id: must use only letters, digits and - _ . ~ (it becomes part of a URL)',
      'services[2].picture: must be empty, a /media/{id}.webp path or an http(s) URL',
      'services[2].shortTxt: unknown field',
      'articles[0].tags[0]: must be at most 50 characters',
    ]);
  });

  it('accepts /media/{hash}.webp and http(s) images only', () => {
    const hash = 'a'.repeat(32);
    expect(mediaIdFromUrl(`/media/${hash}.webp`)).toBe(hash);
    expect(mediaIdFromUrl(`/media/${hash}.png`)).toBeUndefined();
    expect(mediaIdFromUrl('/media/../secret.webp')).toBeUndefined();
    const images = ['https://cdn.example.com/a.jpg', 'http://example.com/b.png', `/media/${hash}.webp`, ''];
    expect(problemsOf({ ...envelope, demos: images.map((profilePicture, i) => ({ id: `d${i}`, name: 'D', profilePicture })) })).toEqual([]);
    expect(problemsOf({ ...envelope, demos: [{ id: 'd', name: 'D', profilePicture: 'data:image/png;base64,AAAA' }] })).toHaveLength(1);
  });
});

describe('site content document', () => {
  it('checks latitude and longitude ranges and reports unknown and badly named fields', () => {
    const problems = siteContentProblems({
      business: { latitude: 91, longitude: -181 },
      hero: { headline: 'Hi', subtitle: 'unknown' },
    }).map((p) => `${formatPath(p.path)}: ${p.message}`);
    expect(problems).toEqual(['business.latitude: must be at most 90', 'business.longitude: must be at least -180']);

    const unknown = siteContentProblems({ hero: { headline: 'Hi', subtitle: 'x' }, 'a*b': 1 }).map((p) => formatPath(p.path));
    expect(unknown).toEqual(['["a*b"]', 'hero.subtitle']);
  });

  it('accepts a valid partial document (defaults fill the rest when rendering)', () => {
    expect(siteContentProblems({ siteName: 'Bright Clinic', business: { latitude: 51.5, longitude: -0.12 } })).toEqual([]);
    expect(siteContentProblems({ footer: { copyrightYear: 2019 } })).toEqual([]);
  });

  it('says when the footer’s copyright year is not a year in range', () => {
    const problems = siteContentProblems({ footer: { copyrightYear: 99 } }).map((p) => `${formatPath(p.path)}: ${p.message}`);
    expect(problems).toEqual([`footer.copyrightYear: must be a four-digit year from 1900 to ${new Date().getUTCFullYear() + 1}, such as 2025`]);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ContentBundleInput } from '../../src/shared/content-bundle';
import type { DatabaseHandle } from '../../src/server/db/client';
import { findMedia } from '../../src/server/media/repository';
import { processImage } from '../../src/server/media/process';
import { listPublishedArticles } from '../../src/server/modules/articles/repository';
import { getActivePackage, listServices } from '../../src/server/modules/catalog/repository';
import { exportContentBundle, importContentBundle } from '../../src/server/modules/content-transfer';
import { listFaqs } from '../../src/server/modules/faqs/repository';
import { readConfigDocument } from '../../src/server/modules/site/repository';
import { getLandingBlocks, getSiteContent } from '../../src/server/modules/site/service';
import { buildDemoBundle } from '../../src/server/seed/demo-bundle';
import { freshDatabase } from '../support/db';

let handle: DatabaseHandle;
beforeEach(async () => {
  handle = await freshDatabase();
});
afterEach(async () => {
  await handle.close();
});

const envelope = { format: 'agency-site-content', version: 1 } as const;

async function image(color: string) {
  const png = await sharp({ create: { width: 64, height: 36, channels: 3, background: color } }).png().toBuffer();
  const img = await processImage(png);
  const entry = { id: img.id, contentType: 'image/webp' as const, width: img.width, height: img.height, alt: 'Swatch', data: img.data.toString('base64') };
  return { entry, url: img.url };
}

async function validBundle(): Promise<ContentBundleInput> {
  const pic = await image('#14b8a6');
  return {
    ...envelope,
    exportedAt: '2025-05-01T10:00:00.000Z',
    services: [
      { id: 'reminders', name: 'Appointment Reminders', price: 290, picture: pic.url, benefits: ['Fewer no-shows'], order: 1, createdAt: '2025-01-02T00:00:00Z' },
      {
        id: 'outreach',
        name: 'AI Lead Outreach',
        price: 490,
        description: '<p>Fast replies</p><script>alert(1)</script>',
        order: 0,
        createdAt: { _seconds: 1_735_689_600, _nanoseconds: 0 },
      },
    ],
    packages: [
      {
        id: 'starter',
        name: 'Starter',
        priceSetup: 1200,
        priceMonthly: 300,
        includedServiceIds: ['reminders', 'outreach'],
        features: [{ title: 'Fast', description: 'Live in a week' }],
      },
    ],
    articles: [
      {
        id: 'firebase-doc-id-123',
        slug: 'speed-to-lead',
        title: 'Speed to lead',
        content: '<h2>Why</h2><p onclick="x()">Because <a href="javascript:alert(1)">this</a></p><img src="x" onerror="alert(1)">',
        tags: ['leads'],
        published: true,
        featuredImage: pic.url,
        createdAt: '2025-04-01T08:00:00.000Z',
      },
    ],
    faqs: [{ id: 'faq-1', question: 'How fast?', answer: '<p>Minutes.<iframe src="https://x"></iframe></p>', order: 0 }],
    landingPageConfig: { blockOrder: ['faqs', 'hero', 'services'], hidden: ['services'] },
    siteContent: { siteName: 'Bright Clinic Automation', business: { latitude: 51.5, longitude: -0.12 } },
    seo: [{ path: '/services', title: 'Services', description: 'What we automate', publishedTime: null, modifiedTime: null }],
    pages: { privacy: { html: '<h2>Privacy</h2><p>We keep little.</p><script>x</script>' } },
    media: [pic.entry],
  };
}

describe('content import', () => {
  it('imports a valid file: ids kept, HTML sanitized, order and links as in the file', async () => {
    const result = await importContentBundle(await validBundle());
    expect(result).toEqual({
      ok: true,
      summary: { services: 2, demos: 0, packages: 1, articles: 1, faqs: 1, seo: 1, media: 1, pages: 1, landingPageConfig: true, siteContent: true },
    });

    const services = await listServices();
    expect(services.map((s) => s.id)).toEqual(['outreach', 'reminders']);
    expect(services[0]!.description).toBe('<p>Fast replies</p>');
    expect(services[0]!.createdAt.toISOString()).toBe('2025-01-01T00:00:00.000Z');

    expect((await getActivePackage('starter'))?.includedServiceIds).toEqual(['reminders', 'outreach']);

    const [article] = await listPublishedArticles();
    expect(article?.id).toBe('firebase-doc-id-123');
    expect(article?.content).toBe('<h2>Why</h2><p>Because <a>this</a></p><img>');
    expect(article?.updatedAt.toISOString()).toBe('2025-04-01T08:00:00.000Z');

    expect((await listFaqs())[0]?.answer).toBe('<p>Minutes.</p>');
    expect(await getLandingBlocks()).toEqual(['faqs', 'hero']);
    expect((await getSiteContent()).siteName).toBe('Bright Clinic Automation');
    expect(await readConfigDocument('page:privacy')).toMatchObject({ html: '<h2>Privacy</h2><p>We keep little.</p>' });

    const mediaId = services[1]!.picture.match(/[0-9a-f]{32}/)![0];
    expect((await findMedia(mediaId))?.width).toBe(64);
  });

  it('rejects a file with bad records, reporting each by position and field, and writes nothing', async () => {
    expect((await importContentBundle(await validBundle())).ok).toBe(true);
    const before = await exportContentBundle(new Date(0));

    const bad = await validBundle();
    bad.services![0]!.name = 'Renamed in the bad file';
    bad.services!.push({ id: 'outreach', name: '' });
    bad.packages![0]!.includedServiceIds = ['reminders', 'missing-service', 'reminders'];
    bad.articles!.push({ id: 'second', slug: 'speed-to-lead', title: 'Dup slug', createdAt: 'yesterday' });
    bad.demos = [{ id: 'demo', name: 'Demo', suitableFor: ['Clinics'], colour: 'blue' } as never];
    bad.siteContent = { business: { latitude: 95 } };
    bad.media![0]!.alt = 'x'.repeat(301);

    const result = await importContentBundle(bad);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      'services[2].name: must not be empty',
      'services[2].id: id "outreach" is also used by services[1]',
      'demos[0].colour: unknown field',
      'packages[0].includedServiceIds[1]: no service "missing-service" in this file or in the database',
      'packages[0].includedServiceIds[2]: service "reminders" is listed twice',
      'articles[1].createdAt: must be an ISO 8601 date-time such as "2025-03-14T09:30:00.000Z" (or a Firestore timestamp object)',
      'articles[1].slug: slug "speed-to-lead" is also used by articles[0]',
      'siteContent.business.latitude: must be at most 90',
      'media[0].alt: must be at most 300 characters',
    ]);

    expect(await exportContentBundle(new Date(0))).toEqual(before);
    expect((await listServices()).find((s) => s.id === 'reminders')?.name).toBe('Appointment Reminders');
  });

  it('rejects files that are not content files of this version before looking at records', async () => {
    const wrongFormat = await importContentBundle({ format: 'something-else', version: 1, services: [{}] });
    expect(wrongFormat).toEqual({ ok: false, problems: [{ path: 'format', message: expect.stringMatching(/must be "agency-site-content"/) }] });
    const wrongVersion = await importContentBundle({ ...envelope, version: 2 });
    expect(wrongVersion).toEqual({ ok: false, problems: [{ path: 'version', message: 'this importer reads version 1; the file says 2' }] });
    expect(await importContentBundle([])).toMatchObject({ ok: false, problems: [{ path: '(file)' }] });
  });

  it('accepts includedServiceIds of services already stored and rewrites a package’s list in the new order', async () => {
    await importContentBundle({ ...envelope, services: ['a', 'b', 'c'].map((id) => ({ id, name: `Service ${id}` })) });
    await importContentBundle({ ...envelope, packages: [{ id: 'p', name: 'P', includedServiceIds: ['c', 'a', 'b'] }] });
    expect((await getActivePackage('p'))?.includedServiceIds).toEqual(['c', 'a', 'b']);

    await importContentBundle({ ...envelope, packages: [{ id: 'p', name: 'P', includedServiceIds: ['b', 'c'] }] });
    expect((await getActivePackage('p'))?.includedServiceIds).toEqual(['b', 'c']);
    expect((await listServices()).map((s) => s.id)).toEqual(['a', 'b', 'c']);
  });

  it('flags a /media/ reference that is neither in the file nor stored', async () => {
    const result = await importContentBundle({
      ...envelope,
      services: [{ id: 's', name: 'S', picture: `/media/${'0'.repeat(32)}.webp` }],
    });
    expect(result).toEqual({
      ok: false,
      problems: [{ path: 'services[0].picture', message: `/media/${'0'.repeat(32)}.webp is neither in this file's media nor in the database` }],
    });
  });

  it('rejects media whose bytes do not match their content-hash id', async () => {
    const { entry } = await image('#2553e0');
    const other = await image('#172554');
    const result = await importContentBundle({ ...envelope, media: [{ ...entry, data: other.entry.data }] });
    expect(result).toMatchObject({ ok: false, problems: [{ path: 'media[0]', message: expect.stringMatching(/content hash/) }] });
  });

  it('lets slugs move between articles in one import (ids stay, links by slug follow the file)', async () => {
    await importContentBundle({
      ...envelope,
      articles: [
        { id: 'one', slug: 'first', title: 'One', published: true },
        { id: 'two', slug: 'second', title: 'Two', published: true },
      ],
    });
    const swapped = await importContentBundle({
      ...envelope,
      articles: [
        { id: 'one', slug: 'second', title: 'One', published: true },
        { id: 'two', slug: 'first', title: 'Two', published: true },
      ],
    });
    expect(swapped.ok).toBe(true);
    const bySlug = Object.fromEntries((await listPublishedArticles()).map((a) => [a.slug, a.id]));
    expect(bySlug).toEqual({ second: 'one', first: 'two' });

    const clash = await importContentBundle({ ...envelope, articles: [{ id: 'three', slug: 'first', title: 'Three' }] });
    expect(clash).toMatchObject({ ok: false, problems: [{ path: 'articles[0].slug', message: '"first" is already the slug of article "two" in the database' }] });
  });
});

describe('content export', () => {
  it('round-trips: export → import into an empty database → export gives the same content', async () => {
    const demo = await buildDemoBundle(new Date('2025-06-01T12:00:00.000Z'));
    const extras = await validBundle();
    const source = {
      ...demo,
      faqs: extras.faqs,
      seo: [
        // Written before the site-name choice existed: imported as left to the title.
        { path: '/', title: 'Home', description: 'Automation', publishedTime: '2025-01-01T00:00:00.000Z', modifiedTime: null },
        { path: '/services', title: 'Services | Round', siteNameAfterTitle: false },
      ],
      pages: { privacy: { html: '<p>Privacy</p>', updatedAt: '2025-02-01T00:00:00.000Z' }, terms: { html: '<p>Terms</p>' } },
      landingPageConfig: { blockOrder: ['hero', 'cta', 'not-a-block'], hidden: ['cta'] },
      siteContent: { siteName: 'Round Trip', hero: { rotatingPhrases: ['a', 'b'] }, footer: { copyrightYear: 2019 } },
    };
    expect((await importContentBundle(source, new Date('2025-06-02T00:00:00.000Z'))).ok).toBe(true);
    const first = await exportContentBundle(new Date('2025-06-03T00:00:00.000Z'));
    await handle.close();

    handle = await freshDatabase();
    expect((await importContentBundle(JSON.parse(JSON.stringify(first)))).ok).toBe(true);
    const second = await exportContentBundle(new Date('2025-06-03T00:00:00.000Z'));

    expect(second).toEqual(first);
    expect(first.services).toHaveLength(6);
    expect(first.media).toHaveLength(demo.media!.length);
    expect(first.pages).toEqual({ privacy: { html: '<p>Privacy</p>', updatedAt: '2025-02-01T00:00:00.000Z' }, terms: { html: '<p>Terms</p>', updatedAt: '2025-06-02T00:00:00.000Z' } });
    expect(first.landingPageConfig).toEqual(source.landingPageConfig);
    expect(first.seo!.map((s) => [s.path, s.siteNameAfterTitle])).toEqual([
      ['/', null],
      ['/services', false],
    ]);
    expect(first.siteContent).toMatchObject({ footer: { copyrightYear: 2019 } });
  });
});

describe('docs/content-format.md', () => {
  it('its full example is a valid file that imports', async () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/content-format.md'), 'utf8');
    const example = /## Example[\s\S]*?```json\n([\s\S]*?)\n```/.exec(doc)?.[1];
    const result = await importContentBundle(JSON.parse(example!));
    expect(result).toMatchObject({ ok: true, summary: { services: 2, demos: 1, packages: 1, articles: 1, faqs: 1, seo: 1, media: 1, pages: 2 } });
  });
});

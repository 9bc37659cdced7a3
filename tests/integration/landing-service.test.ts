import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '../../src/server/db';
import type { DatabaseHandle } from '../../src/server/db/client';
import { appConfig, articles, demos, faqs, packageServices, packages, services } from '../../src/server/db/schema';
import { clearAllMemos, invalidateMemos } from '../../src/server/cache/memo';
import { logger } from '../../src/server/logger';
import { loadLandingPage, loadLandingPageSectionBySection } from '../../src/server/modules/landing/service';
import { DEFAULT_FAQS } from '../../src/shared/default-faqs';
import { LANDING_BLOCKS } from '../../src/shared/landing';
import { freshDatabase } from '../support/db';

let handle: DatabaseHandle;
beforeEach(async () => {
  handle = await freshDatabase();
  // Each test writes its rows straight to a new database: the landing memo of the last one must go.
  clearAllMemos();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await handle.close();
});

const day = (n: number) => new Date(Date.UTC(2025, 0, n));

async function insertServices(count: number) {
  // Inserted in reverse so that only ORDER BY, not insertion order, can put them in order.
  for (let i = count; i >= 1; i--) {
    await db().insert(services).values({ id: `s${i}`, name: `Service ${i}`, shortText: `About ${i}`, order: i, price: 99 });
  }
}

describe('loadLandingPage', () => {
  it('on an empty database: default block order, default texts, empty lists and the ten built-in FAQs', async () => {
    const page = await loadLandingPage();
    expect(page.blocks).toEqual([...LANDING_BLOCKS]);
    expect(page.site.hero.bookCallLabel).toBe('Book a call');
    expect(page.services).toEqual({ items: [], total: 0 });
    expect(page.packages).toEqual({ items: [], total: 0 });
    expect(page.demos).toEqual({ items: [], total: 0 });
    expect(page.articles).toEqual({ items: [], total: 0 });
    expect(page.faqs).toHaveLength(10);
    expect(page.faqs.map((f) => f.question)).toEqual(DEFAULT_FAQS.map((f) => f.question));
  });

  it('previews the first 4 services by order with the total, and never carries a price', async () => {
    await insertServices(6);
    const page = await loadLandingPage();
    expect(page.services.total).toBe(6);
    expect(page.services.items.map((s) => s.id)).toEqual(['s1', 's2', 's3', 's4']);
    expect(JSON.stringify(page)).not.toMatch(/"price/);
  });

  it('previews the first 4 active packages; inactive ones never appear or count', async () => {
    await insertServices(4);
    await db().insert(packages).values([
      { id: 'hidden', name: 'Retired', isActive: false, order: 0, priceSetup: 5000 },
      { id: 'p5', name: 'Five', order: 5 },
      { id: 'p1', name: 'One', order: 1, priceSetup: 1500, priceMonthly: 300 },
      { id: 'p2', name: 'Two', order: 2, priceSetup: 999 },
      { id: 'p3', name: 'Three', order: 3 },
      { id: 'p4', name: 'Four', order: 4 },
    ]);
    await db().insert(packageServices).values([
      { packageId: 'p1', serviceId: 's3', position: 0 },
      { packageId: 'p1', serviceId: 's1', position: 1 },
      { packageId: 'p1', serviceId: 's4', position: 2 },
      { packageId: 'p2', serviceId: 's2', position: 0 },
      { packageId: 'p2', serviceId: 's1', position: 1 },
      { packageId: 'p2', serviceId: 's3', position: 2 },
      { packageId: 'hidden', serviceId: 's1', position: 0 },
    ]);

    const { packages: preview } = await loadLandingPage();
    expect(preview.total).toBe(5);
    expect(preview.items.map((p) => p.id)).toEqual(['p1', 'p2', 'p3', 'p4']);
    const [p1, p2, p3] = preview.items;
    // Included services keep the package's own order, with what the card shows of each.
    expect(p1!.includedServices).toEqual([
      { id: 's3', name: 'Service 3', shortText: 'About 3' },
      { id: 's1', name: 'Service 1', shortText: 'About 1' },
      { id: 's4', name: 'Service 4', shortText: 'About 4' },
    ]);
    expect(p3!.includedServices).toEqual([]);
    // BEST VALUE: 3 services and setup ≥ 1000; 999 is not enough. The price itself never leaves the server.
    expect(p1!.bestValue).toBe(true);
    expect(p2!.bestValue).toBe(false);
    expect(JSON.stringify(preview)).not.toMatch(/price|:1500\b|:999\b/i);
  });

  it('previews the first 4 demos by order with the total', async () => {
    for (const i of [5, 3, 1, 4, 2]) await db().insert(demos).values({ id: `d${i}`, name: `Demo ${i}`, order: i });
    const { demos: preview } = await loadLandingPage();
    expect(preview.total).toBe(5);
    expect(preview.items.map((d) => d.id)).toEqual(['d1', 'd2', 'd3', 'd4']);
  });

  it('previews the 4 newest published articles; drafts never appear or count', async () => {
    await db().insert(articles).values([
      ...[1, 2, 3, 4, 5, 6].map((i) => ({ id: `a${i}`, slug: `article-${i}`, title: `A${i}`, published: true, createdAt: day(i) })),
      { id: 'draft', slug: 'draft', title: 'Draft', published: false, createdAt: day(30) },
    ]);
    const { articles: preview } = await loadLandingPage();
    expect(preview.total).toBe(6);
    expect(preview.items.map((a) => a.slug)).toEqual(['article-6', 'article-5', 'article-4', 'article-3']);
  });

  it('uses stored FAQs in their order instead of the defaults', async () => {
    await db().insert(faqs).values([
      { id: 'f2', question: 'Second?', answer: '<p>B</p>', order: 2 },
      { id: 'f1', question: 'First?', answer: '<p>A</p>', order: 1 },
    ]);
    const { faqs: shown } = await loadLandingPage();
    expect(shown).toEqual([
      { id: 'f1', question: 'First?', answer: '<p>A</p>' },
      { id: 'f2', question: 'Second?', answer: '<p>B</p>' },
    ]);
  });

  it('follows the stored block order, skipping unknown and hidden blocks', async () => {
    await db()
      .insert(appConfig)
      .values({ key: 'landingPage', value: { blockOrder: ['faqs', 'bogus', 'hero', 'cta', 'services'], hidden: ['cta'] } });
    const { blocks } = await loadLandingPage();
    expect(blocks).toEqual(['faqs', 'hero', 'services']);
  });

  it('the one-statement read and the section-by-section fallback return the same page', async () => {
    await insertServices(6);
    await db().insert(packages).values([
      { id: 'p1', name: 'One', order: 1, priceSetup: 1500, features: [{ title: 'Setup', description: 'Done for you' }] },
      { id: 'p2', name: 'Two', order: 2 },
    ]);
    await db().insert(packageServices).values(['s2', 's1', 's3'].map((serviceId, position) => ({ packageId: 'p1', serviceId, position })));
    await db().insert(demos).values({ id: 'd1', name: 'Demo', suitableFor: ['Clinics', 'Coaches', 'Gyms'] });
    await db().insert(articles).values({ id: 'a1', slug: 'a', title: 'A', tags: ['x'], published: true, createdAt: new Date('2025-03-04T05:06:07.891Z') });
    await db().insert(faqs).values({ id: 'f1', question: 'Q?', answer: '<p>A</p>' });
    await db().insert(appConfig).values([
      { key: 'landingPage', value: { blockOrder: ['cta', 'hero'] } },
      { key: 'siteContent', value: { siteName: 'Clinic Boost' } },
    ]);

    const errors = vi.spyOn(logger, 'error');
    const fast = await loadLandingPage();
    // Nothing logged: the one-statement path really ran instead of quietly falling back.
    expect(errors).not.toHaveBeenCalled();
    expect(fast).toEqual(await loadLandingPageSectionBySection());
    expect(fast.articles.items[0]!.createdAt).toEqual(new Date('2025-03-04T05:06:07.891Z'));
    expect(fast.site.siteName).toBe('Clinic Boost');
    // Only what the cards show is read: no long descriptions on the landing page's hot path.
    expect(Object.keys(fast.services.items[0]!).sort()).toEqual(['benefits', 'id', 'name', 'picture', 'pictureAlt', 'shortText']);
    expect(Object.keys(fast.demos.items[0]!).sort()).toEqual(['id', 'name', 'profilePicture', 'profilePictureAlt', 'shortText', 'suitableFor']);
    expect(Object.keys(fast.packages.items[0]!).sort()).toEqual(['bestValue', 'features', 'id', 'includedServices', 'name', 'picture', 'pictureAlt', 'shortText']);
    // Run twice: the second run is the memo's.
    expect(await loadLandingPage()).toEqual(fast);
  });

  it('reads the database once per change, not once per render: the cache tag of a write brings the next read', async () => {
    await insertServices(2);
    const first = await loadLandingPage();
    expect(first.services.total).toBe(2);
    await db().insert(services).values({ id: 's3', name: 'Service 3', shortText: 'About 3', order: 3, price: 99 });
    // No tag invalidated yet: the same content, without a query.
    const execute = handle.pglite ? vi.spyOn(handle.pglite, 'exec') : vi.spyOn(handle.db, 'execute');
    expect((await loadLandingPage()).services.total).toBe(2);
    expect(execute).not.toHaveBeenCalled();
    // A tag the landing page does not show leaves it alone; its own tag brings the new rows.
    invalidateMemos(['policies']);
    expect((await loadLandingPage()).services.total).toBe(2);
    invalidateMemos(['services']);
    expect((await loadLandingPage()).services.total).toBe(3);
  });

  it('when reads fail, logs each failure and falls back: default order, built-in FAQs, empty lists', async () => {
    await insertServices(5);
    const errors = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    await db().execute(sql`drop table app_config, faqs, articles, demos, package_services cascade`);

    const page = await loadLandingPage();
    expect(page.blocks).toEqual([...LANDING_BLOCKS]);
    expect(page.site.siteName).toBe('Autoflow Agency');
    expect(page.faqs.map((f) => f.id)).toEqual(DEFAULT_FAQS.map((f) => f.id));
    expect(page.articles).toEqual({ items: [], total: 0 });
    expect(page.demos).toEqual({ items: [], total: 0 });
    // The services read still works: one failing section never takes the others down.
    expect(page.services.total).toBe(5);
    expect(errors.mock.calls.length).toBeGreaterThanOrEqual(5);
  });
});

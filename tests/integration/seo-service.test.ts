import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appConfig, articles, demos, packages, services } from '../../src/server/db/schema';
import type { DatabaseHandle } from '../../src/server/db/client';
import { invalidateMemos } from '../../src/server/cache/memo';
import { resolvePageSeo, saveSeoPage } from '../../src/server/modules/seo/service';
import { renderSitemap, sitemapUrls } from '../../src/server/modules/seo/sitemap';
import { freshDatabase } from '../support/db';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await freshDatabase();
});
afterAll(async () => {
  await handle.close();
});

describe('resolvePageSeo', () => {
  it('uses the page values and the default site name when nothing is stored', async () => {
    const seo = await resolvePageSeo({ title: 'Demos', description: 'Demo builds', path: '/demos' });
    expect(seo.title).toBe('Demos | Autoflow Agency');
    expect(seo.description).toBe('Demo builds');
    expect(seo.canonical).toMatch(/\/demos$/);
  });

  it('applies what an admin stored for the path and the stored site name', async () => {
    await resolvePageSeo({ title: 'Services', description: 'All services', path: '/services' });
    await handle.db.insert(appConfig).values({ key: 'siteContent', value: { siteName: 'Clinic Bots' } });
    // Site texts are saved by another module; its write invalidates the "site" tag.
    invalidateMemos(['site']);
    // No route cache in tests: saving still drops the memoized metadata, so the next render shows it.
    await saveSeoPage({ cache: undefined } as never, '/services/', { title: 'AI services for clinics', description: '', keywords: 'ai, clinics' });
    const seo = await resolvePageSeo({ title: 'Services', description: 'All services', path: '/services' });
    expect(seo).toMatchObject({
      title: 'AI services for clinics | Clinic Bots',
      description: 'All services',
      keywords: 'ai, clinics',
      siteName: 'Clinic Bots',
    });
    expect(seo.jsonLd.find((b) => b['@type'] === 'Organization')?.name).toBe('Clinic Bots');
  });
});

describe('sitemap', () => {
  it('lists the home and list pages and only public detail pages, with lastmod', async () => {
    const updatedAt = new Date('2025-04-01T12:00:00Z');
    await handle.db.insert(services).values({ id: 'lead-outreach', name: 'Lead outreach', updatedAt });
    await handle.db.insert(demos).values({ id: 'dental-bot', name: 'Dental bot' });
    await handle.db.insert(packages).values([
      { id: 'growth', name: 'Growth', isActive: true },
      { id: 'retired', name: 'Retired', isActive: false },
    ]);
    await handle.db.insert(articles).values([
      { id: 'a1', slug: 'no-shows', title: 'No-shows', published: true },
      { id: 'a2', slug: 'draft-post', title: 'Draft', published: false },
    ]);
    const paths = (await sitemapUrls()).map((u) => u.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/', '/services', '/packages', '/demos', '/articles', '/free-audit', '/privacy', '/terms']),
    );
    expect(paths).toEqual(
      expect.arrayContaining(['/service/lead-outreach', '/demo/dental-bot', '/package/growth', '/article/no-shows']),
    );
    expect(paths).not.toContain('/package/retired');
    expect(paths).not.toContain('/article/draft-post');
    const xml = renderSitemap('https://agency.example', await sitemapUrls());
    expect(xml).toContain('<loc>https://agency.example/service/lead-outreach</loc><lastmod>2025-04-01T12:00:00.000Z</lastmod>');
  });
});

describe('when the database fails', () => {
  it('renders with the page values instead of failing the page', async () => {
    await handle.close();
    invalidateMemos(['seo']);
    const seo = await resolvePageSeo({ title: 'Terms', description: 'Our terms', path: '/terms' });
    expect(seo.title).toBe('Terms | Autoflow Agency');
    expect(seo.description).toBe('Our terms');
  });
});

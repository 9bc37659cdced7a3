import { describe, expect, it } from 'vitest';
import { absoluteUrl, canonicalPath, fullTitle, mergePageSeo } from '../../src/server/modules/seo/service';
import type { StoredSeo } from '../../src/server/modules/seo/repository';
import { escapeXml, renderRobots, renderSitemap } from '../../src/server/modules/seo/sitemap';
import { resolveSiteContent } from '../../src/shared/site-content';

const site = resolveSiteContent({ siteName: 'Autoflow Agency', tagline: 'AI automation for clinics' });
const SITE = 'https://agency.example';
const stored = (values: Partial<StoredSeo>): StoredSeo => ({
  title: '',
  description: '',
  keywords: '',
  image: '',
  url: '',
  type: 'website',
  author: '',
  publishedTime: null,
  modifiedTime: null,
  siteNameAfterTitle: null,
  ...values,
});

describe('page title', () => {
  it('is "{title} | {siteName}" on inner pages and the page title alone on the home page', () => {
    expect(fullTitle('Services', 'Autoflow Agency', '/services')).toBe('Services | Autoflow Agency');
    expect(fullTitle('Autoflow Agency', 'Autoflow Agency', '/')).toBe('Autoflow Agency');
    expect(fullTitle('About Autoflow Agency', 'Autoflow Agency', '/about')).toBe('About Autoflow Agency');
  });

  it('cuts the full title to 60 characters (57 + "...")', () => {
    const seo = mergePageSeo({ title: 'A very long article title about automating follow-ups', description: 'd', path: '/article/x' }, undefined, site, SITE);
    expect(seo.title).toHaveLength(60);
    expect(seo.title.endsWith('...')).toBe(true);
    expect(seo.title.startsWith('A very long article title')).toBe(true);
  });

  it('cuts the description to 160 characters (157 + "...")', () => {
    const seo = mergePageSeo({ title: 'T', description: 'word '.repeat(60), path: '/t' }, undefined, site, SITE);
    expect(Array.from(seo.description)).toHaveLength(160);
    expect(seo.description.endsWith('...')).toBe(true);
  });
});

describe('stored metadata', () => {
  const props = { title: 'Services', description: 'Page text', path: '/services', keywords: 'page, words' };

  it('overrides the page values field by field, ignoring empty stored fields', () => {
    const seo = mergePageSeo(props, stored({ title: 'Automation services', keywords: '  ' }), site, SITE);
    expect(seo.title).toBe('Automation services | Autoflow Agency');
    expect(seo.description).toBe('Page text');
    expect(seo.keywords).toBe('page, words');
  });

  it('uses the page values when nothing is stored', () => {
    const seo = mergePageSeo(props, undefined, site, SITE);
    expect(seo).toMatchObject({ title: 'Services | Autoflow Agency', canonical: 'https://agency.example/services', type: 'website' });
  });

  it('makes image URLs absolute and drops non-http ones', () => {
    expect(mergePageSeo({ ...props, image: '/media/a.webp' }, undefined, site, SITE).image).toBe('https://agency.example/media/a.webp');
    expect(mergePageSeo(props, stored({ image: 'javascript:alert(1)' }), site, SITE).image).toBeUndefined();
    expect(absoluteUrl(SITE, 'https://cdn.example/x.png')).toBe('https://cdn.example/x.png');
  });

  it('takes a stored canonical URL, but only an http(s) one', () => {
    expect(mergePageSeo(props, stored({ url: 'https://agency.example/automation' }), site, SITE).canonical).toBe(
      'https://agency.example/automation',
    );
    expect(mergePageSeo(props, stored({ url: 'data:text/html,x' }), site, SITE).canonical).toBe('https://agency.example/services');
  });

  it('keeps an article an article when the stored row has the default type', () => {
    const seo = mergePageSeo({ ...props, type: 'article', author: 'Dana' }, stored({ type: 'website' }), site, SITE);
    expect(seo.type).toBe('article');
    expect(seo.jsonLd.some((b) => b['@type'] === 'Article')).toBe(true);
  });

  it('puts the uncut title into the Article headline', () => {
    const title = 'x'.repeat(80);
    const seo = mergePageSeo({ title, description: 'd', path: '/article/a', type: 'article' }, undefined, site, SITE);
    expect(seo.jsonLd.find((b) => b['@type'] === 'Article')?.headline).toBe(title);
  });
});

describe('canonical path', () => {
  it('drops query, fragment and trailing slash', () => {
    expect(canonicalPath('/services/?utm_source=x#top')).toBe('/services');
    expect(canonicalPath('/')).toBe('/');
    expect(canonicalPath('')).toBe('/');
  });
});

describe('sitemap and robots', () => {
  it('writes absolute, XML-escaped locations with ISO lastmod', () => {
    const xml = renderSitemap(SITE, [
      { path: '/' },
      { path: '/article/a&b<c>', lastmod: new Date('2025-02-03T04:05:06Z') },
    ]);
    expect(xml).toContain('<loc>https://agency.example/</loc>');
    expect(xml).toContain('<loc>https://agency.example/article/a&amp;b&lt;c&gt;</loc><lastmod>2025-02-03T04:05:06.000Z</lastmod>');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(escapeXml(`"'`)).toBe('&quot;&apos;');
  });

  it('allows everything but the private areas and points at the absolute sitemap', () => {
    const robots = renderRobots(SITE);
    for (const p of ['/admin', '/dashboard', '/auth', '/verify-email', '/api']) expect(robots).toContain(`Disallow: ${p}\n`);
    expect(robots).toContain('Allow: /\n');
    expect(robots).toContain('Sitemap: https://agency.example/sitemap.xml');
  });
});

import { describe, expect, it } from 'vitest';
import {
  articleJsonLd,
  jsonLdGraph,
  faqPageJsonLd,
  organizationJsonLd,
  pageJsonLd,
  serializeJsonLd,
  type JsonLdSite,
} from '../../src/shared/json-ld';

const site: JsonLdSite = {
  siteUrl: 'https://agency.example',
  siteName: 'Autoflow Agency',
  email: 'hello@agency.example',
  socialUrl: 'https://www.linkedin.com/company/autoflow',
  latitude: null,
  longitude: null,
};

const page = { url: 'https://agency.example/services', title: 'Services', description: 'What we automate' };

describe('Organization', () => {
  it('names the business with absolute url and logo, its email and social profile', () => {
    const org = organizationJsonLd(site);
    expect(org).toMatchObject({
      '@type': 'Organization',
      name: 'Autoflow Agency',
      url: 'https://agency.example/',
      logo: 'https://agency.example/favicon.svg',
      email: 'hello@agency.example',
      sameAs: ['https://www.linkedin.com/company/autoflow'],
    });
    expect(org).not.toHaveProperty('location');
  });

  it('adds geo coordinates only when both latitude and longitude are set and in range', () => {
    expect(organizationJsonLd({ ...site, latitude: 51.5, longitude: -0.12 }).location).toEqual({
      '@type': 'Place',
      geo: { '@type': 'GeoCoordinates', latitude: 51.5, longitude: -0.12 },
    });
    expect(organizationJsonLd({ ...site, latitude: 51.5, longitude: null })).not.toHaveProperty('location');
    expect(organizationJsonLd({ ...site, latitude: 91, longitude: 10 })).not.toHaveProperty('location');
    expect(organizationJsonLd({ ...site, latitude: 0, longitude: 0 })).toHaveProperty('location');
  });
});

describe('page blocks', () => {
  it('always has Organization and WebSite, and nothing else for a plain page', () => {
    expect(pageJsonLd(site, page).map((b) => b['@type'])).toEqual(['Organization', 'WebSite']);
  });

  it('adds a BreadcrumbList with absolute item URLs in order', () => {
    const blocks = pageJsonLd(site, {
      ...page,
      breadcrumbs: [
        { name: 'Home', path: '/' },
        { name: 'Services', path: '/services' },
      ],
    });
    const crumbs = blocks.find((b) => b['@type'] === 'BreadcrumbList');
    expect(crumbs?.itemListElement).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Home', item: 'https://agency.example/' },
      { '@type': 'ListItem', position: 2, name: 'Services', item: 'https://agency.example/services' },
    ]);
  });

  it('adds an Article with headline, image, author, dates and publisher for article pages only', () => {
    const published = new Date('2025-03-01T10:00:00Z');
    const modified = new Date('2025-03-05T08:30:00Z');
    const article = {
      ...page,
      url: 'https://agency.example/article/no-shows',
      title: 'Cutting no-shows',
      type: 'article' as const,
      image: 'https://agency.example/media/abc.webp',
      author: 'Dana Reed',
      publishedTime: published,
      modifiedTime: modified,
    };
    expect(pageJsonLd(site, { ...article, type: 'website' }).some((b) => b['@type'] === 'Article')).toBe(false);
    expect(pageJsonLd(site, article).find((b) => b['@type'] === 'Article')).toMatchObject({
      headline: 'Cutting no-shows',
      image: ['https://agency.example/media/abc.webp'],
      author: { '@type': 'Person', name: 'Dana Reed' },
      datePublished: '2025-03-01T10:00:00.000Z',
      dateModified: '2025-03-05T08:30:00.000Z',
      publisher: { '@type': 'Organization', name: 'Autoflow Agency' },
    });
  });

  it('falls back to the publish date for dateModified and the organization as author', () => {
    const a = articleJsonLd(site, { ...page, type: 'article', publishedTime: new Date('2025-01-01T00:00:00Z') });
    expect(a.dateModified).toBe('2025-01-01T00:00:00.000Z');
    expect(a.author).toMatchObject({ '@type': 'Organization', name: 'Autoflow Agency' });
  });

  it('gives FAQPage answers as plain text, not HTML', () => {
    const faq = faqPageJsonLd([
      { question: 'Do you <em>integrate</em>?', answer: '<p>Yes &amp; <strong>fast</strong>.</p><ul><li>CRM</li><li>Calendar</li></ul>' },
    ]);
    expect(faq.mainEntity).toEqual([
      { '@type': 'Question', name: 'Do you integrate?', acceptedAnswer: { '@type': 'Answer', text: 'Yes & fast. CRM Calendar' } },
    ]);
  });
});

describe('jsonLdGraph', () => {
  it('puts every block of the page into one graph with a single @context', () => {
    const graph = jsonLdGraph(pageJsonLd(site, { ...page, faqs: [{ question: 'Q', answer: 'A' }] }));
    expect(graph['@context']).toBe('https://schema.org');
    const nodes = graph['@graph'] as Record<string, unknown>[];
    expect(nodes.map((n) => n['@type'])).toEqual(['Organization', 'WebSite', 'FAQPage']);
    expect(nodes.every((n) => !('@context' in n))).toBe(true);
  });
});

describe('serializeJsonLd', () => {
  it('can never close the script element or open a comment, whatever the content', () => {
    const hostile = faqPageJsonLd([{ question: '</script><script>alert(1)</script>', answer: 'x' }]);
    hostile.extra = '<!-- </SCRIPT > & \u2028';
    const out = serializeJsonLd(hostile);
    expect(out).not.toMatch(/<|>/);
    expect(out).not.toContain('\u2028');
    // Still the same data once parsed.
    expect(JSON.parse(out)).toEqual(hostile);
  });
});

/**
 * Structured data (schema.org JSON-LD) for public pages. Pure: the caller passes absolute URLs and
 * resolved texts; nothing here reads the database or the environment.
 */
import { stripHtml } from './text';

export type JsonLd = Record<string, unknown>;

export interface JsonLdSite {
  /** Public origin without a trailing slash, e.g. "https://example.com". */
  siteUrl: string;
  siteName: string;
  legalName?: string | undefined;
  description?: string | undefined;
  email?: string | undefined;
  socialUrl?: string | undefined;
  latitude?: number | null | undefined;
  longitude?: number | null | undefined;
}

export interface JsonLdPage {
  /** Absolute canonical URL of the page. */
  url: string;
  title: string;
  description: string;
  /** Absolute image URL. */
  image?: string | undefined;
  type?: 'website' | 'article' | undefined;
  author?: string | undefined;
  publishedTime?: Date | undefined;
  modifiedTime?: Date | undefined;
  breadcrumbs?: { name: string; path: string }[] | undefined;
  faqs?: { question: string; answer: string }[] | undefined;
}

const orgId = (site: JsonLdSite) => `${site.siteUrl}/#organization`;
const websiteId = (site: JsonLdSite) => `${site.siteUrl}/#website`;

function absolute(site: JsonLdSite, pathOrUrl: string): string {
  return /^https?:\/\//i.test(pathOrUrl) ? pathOrUrl : `${site.siteUrl}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
}

const isCoordinate = (v: number | null | undefined, limit: number): v is number =>
  typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= limit;

export function organizationJsonLd(site: JsonLdSite): JsonLd {
  const org: JsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': orgId(site),
    name: site.siteName,
    url: `${site.siteUrl}/`,
    logo: `${site.siteUrl}/favicon.svg`,
  };
  if (site.legalName) org.legalName = site.legalName;
  if (site.email) org.email = site.email;
  if (site.socialUrl) org.sameAs = [site.socialUrl];
  // Both coordinates or neither: half a location is worse than none for local search.
  if (isCoordinate(site.latitude, 90) && isCoordinate(site.longitude, 180)) {
    org.location = {
      '@type': 'Place',
      geo: { '@type': 'GeoCoordinates', latitude: site.latitude, longitude: site.longitude },
    };
  }
  return org;
}

export function websiteJsonLd(site: JsonLdSite): JsonLd {
  const website: JsonLd = {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    '@id': websiteId(site),
    name: site.siteName,
    url: `${site.siteUrl}/`,
    publisher: { '@id': orgId(site) },
  };
  if (site.description) website.description = site.description;
  return website;
}

export function breadcrumbJsonLd(site: JsonLdSite, crumbs: readonly { name: string; path: string }[]): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((c, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: c.name,
      item: absolute(site, c.path),
    })),
  };
}

export function articleJsonLd(site: JsonLdSite, page: JsonLdPage): JsonLd {
  const article: JsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: page.title,
    description: page.description,
    mainEntityOfPage: page.url,
    publisher: {
      '@type': 'Organization',
      '@id': orgId(site),
      name: site.siteName,
      logo: { '@type': 'ImageObject', url: `${site.siteUrl}/favicon.svg` },
    },
  };
  if (page.image) article.image = [page.image];
  if (page.author) article.author = { '@type': 'Person', name: page.author };
  else article.author = { '@type': 'Organization', '@id': orgId(site), name: site.siteName };
  if (page.publishedTime) article.datePublished = page.publishedTime.toISOString();
  const modified = page.modifiedTime ?? page.publishedTime;
  if (modified) article.dateModified = modified.toISOString();
  return article;
}

/**
 * Plain text of stored HTML. Inline tags vanish without a gap ("<em>fast</em>." stays "fast."); block
 * tags separate words; the shared stripHtml then removes the rest and decodes entities.
 */
function htmlToText(html: string): string {
  const blocks = html.replace(/<\/?(p|div|br|li|ul|ol|h[1-6]|tr|td|th|blockquote|section|article)\b[^>]*>/gi, ' ');
  return stripHtml(blocks.replace(/<\/?(a|em|strong|b|i|u|span|code|small|mark|sub|sup)\b[^>]*>/gi, ''));
}

type Faqs = readonly { question: string; answer: string }[];

/** Per list: the landing page passes the same list, read once per change, to every render. */
const faqPages = new WeakMap<Faqs, JsonLd>();

/** FAQ answers are stored as HTML; structured data carries their plain text. Treat the result as read-only. */
export function faqPageJsonLd(faqs: Faqs): JsonLd {
  let block = faqPages.get(faqs);
  if (!block) faqPages.set(faqs, (block = faqPageBlock(faqs)));
  return block;
}

function faqPageBlock(faqs: Faqs): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: faqs.map((f) => ({
      '@type': 'Question',
      name: htmlToText(f.question),
      acceptedAnswer: { '@type': 'Answer', text: htmlToText(f.answer) },
    })),
  };
}

/** Every JSON-LD block of a page: Organization and WebSite always, the others when the page has them. */
export function pageJsonLd(site: JsonLdSite, page: JsonLdPage, extra: readonly JsonLd[] = []): JsonLd[] {
  const blocks = [organizationJsonLd(site), websiteJsonLd(site)];
  if (page.breadcrumbs && page.breadcrumbs.length > 0) blocks.push(breadcrumbJsonLd(site, page.breadcrumbs));
  if (page.type === 'article') blocks.push(articleJsonLd(site, page));
  if (page.faqs && page.faqs.length > 0) blocks.push(faqPageJsonLd(page.faqs));
  return [...blocks, ...extra];
}

/**
 * All blocks of a page as one schema.org graph: one <script> instead of four means one hash in the page's
 * CSP header (Astro hashes every inline script on every render) and one block for crawlers to parse.
 */
export function jsonLdGraph(blocks: readonly JsonLd[]): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@graph': blocks.map((block) => {
      const { '@context': _context, ...rest } = block;
      return rest;
    }),
  };
}

/** What serializeJsonLd writes as a \uXXXX escape (in one pass: it runs on every render). */
const JSON_LD_ESCAPED = /[<>&\u2028\u2029]/g;

/**
 * JSON for a <script type="application/ld+json"> body. "<" is escaped so no stored text can close the
 * script element ("</script>") or open a comment ("<!--"); ">" and "&" for the same parsing contexts, and
 * U+2028/U+2029 because some JavaScript parsers treat them as line ends. The result is still valid JSON.
 */
export function serializeJsonLd(data: JsonLd | readonly JsonLd[]): string {
  return JSON.stringify(data).replace(JSON_LD_ESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

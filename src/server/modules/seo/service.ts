/**
 * Head metadata of a public page: the page's own values, overridden by what an admin stored for its
 * path (non-empty fields only), with site-wide defaults from the site content. A failed read is logged
 * and the page renders with its own values — SEO must never take a page down.
 */
import type { PageSeo } from '../../../components/layout/seo-props';
import { pageJsonLd, type JsonLd, type JsonLdSite } from '../../../shared/json-ld';
import { cutSeoDescription, cutSeoTitle } from '../../../shared/seo';
import { resolveSiteContent, type SiteContent } from '../../../shared/site-content';
import { tagMemo } from '../../cache/memo';
import { CACHE_TAGS, invalidateTags, PUBLIC_PAGE_MAX_AGE_SECONDS } from '../../cache/tags';
import { config } from '../../config';
import { logger } from '../../logger';
import { SITE_CONTENT_KEY } from '../site/service';
import { readSeoAndSiteContent, upsertSeoPage, type StoredSeo } from './repository';

export interface ResolvedSeo {
  /** Cut to 60 characters (seed section 5). */
  title: string;
  /** Cut to 160 characters. */
  description: string;
  canonical: string;
  siteName: string;
  type: 'website' | 'article';
  /** Absolute URL, or undefined when neither the page nor the stored metadata has a usable image. */
  image: string | undefined;
  imageAlt: string | undefined;
  keywords: string | undefined;
  author: string | undefined;
  publishedTime: Date | undefined;
  modifiedTime: Date | undefined;
  noindex: boolean;
  jsonLd: JsonLd[];
}

/** An absolute http(s) URL on our origin or elsewhere; anything else (javascript:, data:, junk) is dropped. */
export function absoluteUrl(siteUrl: string, value: string | undefined): string | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  try {
    const url = new URL(v, `${siteUrl}/`);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function canonicalUrl(siteUrl: string, path: string): string {
  return `${siteUrl}${canonicalPath(path)}`;
}

/** "{title} | {siteName}", except on the home page and when the title already names the site. */
export function fullTitle(title: string, siteName: string, path: string): string {
  const t = title.trim();
  if (!t) return siteName;
  if (path === '/' || t.toLowerCase().includes(siteName.toLowerCase())) return t;
  return `${t} | ${siteName}`;
}

const nonEmpty = (v: string | null | undefined) => (v && v.trim() ? v.trim() : undefined);

/** Pure merge of page values, stored values and site content (exported for unit tests). */
export function mergePageSeo(
  props: PageSeo,
  stored: StoredSeo | undefined,
  site: SiteContent,
  siteUrl: string,
): ResolvedSeo {
  const title = nonEmpty(stored?.title) ?? props.title;
  const description = nonEmpty(stored?.description) ?? nonEmpty(props.description) ?? site.tagline;
  const storedType = stored?.type === 'article' || stored?.type === 'website' ? stored.type : undefined;
  // A stored "website" default must not demote an article page: only a non-default stored type overrides.
  const type = storedType === 'article' ? 'article' : (props.type ?? storedType ?? 'website');
  const canonical = absoluteUrl(siteUrl, nonEmpty(stored?.url)) ?? canonicalUrl(siteUrl, props.path);
  const image = absoluteUrl(siteUrl, nonEmpty(stored?.image) ?? props.image);
  const author = nonEmpty(stored?.author) ?? nonEmpty(props.author);
  const publishedTime = stored?.publishedTime ?? props.publishedTime;
  const modifiedTime = stored?.modifiedTime ?? props.modifiedTime;
  const cutTitle = cutSeoTitle(fullTitle(title, site.siteName, props.path));
  const cutDescription = cutSeoDescription(description);

  const jsonLdSite: JsonLdSite = {
    siteUrl,
    siteName: site.siteName,
    legalName: site.business.legalName,
    description: site.tagline,
    email: site.footer.contactEmail,
    socialUrl: site.footer.socialUrl,
    latitude: site.business.latitude,
    longitude: site.business.longitude,
  };
  const jsonLd = pageJsonLd(
    jsonLdSite,
    {
      url: canonical,
      // Structured data carries the real headline, not the snippet cut.
      title,
      description,
      image,
      type,
      author,
      publishedTime,
      modifiedTime,
      breadcrumbs: props.breadcrumbs,
      faqs: props.faqs,
    },
    props.jsonLd ?? [],
  );

  return {
    title: cutTitle,
    description: cutDescription,
    canonical,
    siteName: site.siteName,
    type,
    image,
    imageAlt: props.imageAlt,
    keywords: nonEmpty(stored?.keywords) ?? nonEmpty(props.keywords),
    author,
    publishedTime,
    modifiedTime,
    noindex: Boolean(props.noindex),
    jsonLd,
  };
}

/**
 * Stored metadata and site texts per path, read once and kept until an SEO or site-text write
 * invalidates them (or the route cache's max-age passes): every uncached render needs them.
 */
const storedSeo = tagMemo([CACHE_TAGS.seo, CACHE_TAGS.site], PUBLIC_PAGE_MAX_AGE_SECONDS * 1000, (path) =>
  readSeoAndSiteContent(path, SITE_CONTENT_KEY),
);

/** At most one database round trip per render; failures are logged only and fall back to the page's own values. */
export async function resolvePageSeo(props: PageSeo): Promise<ResolvedSeo> {
  const siteUrl = config().SITE_URL;
  let stored: StoredSeo | undefined;
  let site: SiteContent;
  try {
    const read = await storedSeo.get(canonicalPath(props.path));
    stored = read.page;
    site = resolveSiteContent(read.siteContent);
  } catch (err) {
    logger.error({ err, path: props.path }, 'SEO metadata failed to load; using the page defaults');
    site = resolveSiteContent(undefined);
  }
  return mergePageSeo(props, stored, site, siteUrl);
}

/** Saves an admin's metadata for a page and drops every cached render and memo that shows it. */
export async function saveSeoPage(
  ctx: Parameters<typeof invalidateTags>[0],
  path: string,
  values: Partial<StoredSeo>,
): Promise<void> {
  await upsertSeoPage(canonicalPath(path), values);
  await invalidateTags(ctx, [CACHE_TAGS.seo]);
}

/** The key stored metadata is saved under: the path without query, fragment or trailing slash. */
export function canonicalPath(path: string): string {
  const clean = path.split(/[?#]/)[0] || '/';
  return clean === '/' ? '/' : clean.replace(/\/+$/, '') || '/';
}

/**
 * Head metadata of a public page: the page's own values, overridden by what an admin stored for its
 * path (non-empty fields only), with the site defaults entry (SEO_DEFAULTS_PATH) and the site texts
 * where neither says anything. A failed read is logged
 * and the page renders with its own values — SEO must never take a page down.
 */
import type { PageSeo } from '../../../components/layout/seo-props';
import { pageJsonLd, type JsonLd, type JsonLdSite } from '../../../shared/json-ld';
import { SEO_DEFAULTS_PATH } from '../../../shared/page-seo';
import { absoluteUrl, canonicalFor, canonicalPath, headTexts, nonEmpty } from '../../../shared/seo';
import { resolveSiteContent, type SiteContent } from '../../../shared/site-content';
import { tagMemo } from '../../cache/memo';
import { CACHE_TAGS, invalidateTags, PUBLIC_PAGE_MAX_AGE_SECONDS } from '../../cache/tags';
import { config } from '../../config';
import { logger } from '../../logger';
import { SITE_CONTENT_KEY } from '../site/service';
import { readSeoAndSiteContent, upsertSeoPage, type StoredSeo } from './repository';

// The page-head rules moved to shared/seo.ts (the admin's preview applies them too); kept importable here.
export { absoluteUrl, canonicalPath, canonicalUrl, fullTitle } from '../../../shared/seo';

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

/**
 * Pure merge of page values, stored values, the site defaults entry and site content (exported for unit
 * tests). Each field: the stored value for the path, else the page's own, else the site default.
 */
export function mergePageSeo(
  props: PageSeo,
  stored: StoredSeo | undefined,
  site: SiteContent,
  siteUrl: string,
  defaults?: StoredSeo | undefined,
): ResolvedSeo {
  // Title and description exactly as /admin/seo previews them (shared/seo.ts).
  const texts = headTexts({ path: props.path, stored, own: props, defaults, site });
  const title = texts.pageTitle;
  const description = texts.uncutDescription;
  const storedType = stored?.type === 'article' || stored?.type === 'website' ? stored.type : undefined;
  // A stored "website" default must not demote an article page: only a non-default stored type overrides.
  const type = storedType === 'article' ? 'article' : (props.type ?? storedType ?? 'website');
  const canonical = canonicalFor(siteUrl, props.path, stored?.url);
  const image = absoluteUrl(siteUrl, nonEmpty(stored?.image) ?? props.image ?? nonEmpty(defaults?.image));
  const author = nonEmpty(stored?.author) ?? nonEmpty(props.author) ?? nonEmpty(defaults?.author);
  const publishedTime = stored?.publishedTime ?? props.publishedTime;
  const modifiedTime = stored?.modifiedTime ?? props.modifiedTime;

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
    title: texts.title,
    description: texts.description,
    canonical,
    siteName: site.siteName,
    type,
    image,
    imageAlt: props.imageAlt,
    keywords: nonEmpty(stored?.keywords) ?? nonEmpty(props.keywords) ?? nonEmpty(defaults?.keywords),
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
const storedSeo = tagMemo([CACHE_TAGS.seo, CACHE_TAGS.site], PUBLIC_PAGE_MAX_AGE_SECONDS * 1000, async (path) => {
  const read = await readSeoAndSiteContent(path, SITE_CONTENT_KEY, SEO_DEFAULTS_PATH);
  // The site texts are checked against their schema here, once per change, not on every render.
  return { page: read.page, defaults: read.defaults, site: resolveSiteContent(read.siteContent) };
});

/** At most one database round trip per render; failures are logged only and fall back to the page's own values. */
export async function resolvePageSeo(props: PageSeo): Promise<ResolvedSeo> {
  const siteUrl = config().SITE_URL;
  let stored: StoredSeo | undefined;
  let defaults: StoredSeo | undefined;
  let site: SiteContent;
  try {
    ({ page: stored, defaults, site } = await storedSeo.get(canonicalPath(props.path)));
  } catch (err) {
    logger.error({ err, path: props.path }, 'SEO metadata failed to load; using the page defaults');
    site = resolveSiteContent(undefined);
  }
  return mergePageSeo(props, stored, site, siteUrl, defaults);
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

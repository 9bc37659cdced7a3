/**
 * Everything the landing page renders. Fast path: one statement (readLandingSnapshot). When it fails,
 * every section is read on its own and each failure is logged and falls back as the seed's error
 * catalogue says: config → default order, FAQs → the ten built-in ones, lists → empty (the section shows
 * its empty-state text).
 */
import { tagMemo } from '../../cache/memo';
import { CACHE_TAGS, PUBLIC_PAGE_MAX_AGE_SECONDS } from '../../cache/tags';
import { LANDING_PREVIEW_COUNT } from '../../../shared/constants';
import { DEFAULT_FAQS, type FaqItem } from '../../../shared/default-faqs';
import { blocksFromConfig, resolveBlockOrder, type LandingBlock } from '../../../shared/landing';
import { resolveSiteContent, type SiteContent } from '../../../shared/site-content';
import { logger } from '../../logger';
import type { ArticleCardFields } from '../articles/repository';
import type { DemoCardFields, ServiceCardFields } from '../catalog/repository';
import { listFaqs } from '../faqs/repository';
import { loggedOnly } from '../logged-only';
import { getLandingBlocks, getSiteContent, LANDING_CONFIG_KEY, SITE_CONTENT_KEY } from '../site/service';
import {
  previewActivePackages,
  previewDemos,
  previewPublishedArticles,
  previewServices,
  readLandingSnapshot,
  type PackagePreview,
  type Preview,
} from './repository';
import { primeSiteContent } from '../site/per-request';

export type { IncludedService, PackagePreview, Preview } from './repository';

export interface LandingPage {
  blocks: LandingBlock[];
  site: SiteContent;
  services: Preview<ServiceCardFields>;
  packages: Preview<PackagePreview>;
  demos: Preview<DemoCardFields>;
  articles: Preview<ArticleCardFields>;
  faqs: FaqItem[];
}

const empty = <T>(): Preview<T> => ({ items: [], total: 0 });
/** Stored FAQs in order, or the built-in ten when none are stored (seed). */
const faqsOrDefaults = (rows: FaqItem[]): FaqItem[] => (rows.length > 0 ? rows : [...DEFAULT_FAQS]);

/** One read per section, each with its own logged fallback. */
export async function loadLandingPageSectionBySection(): Promise<LandingPage> {
  const n = LANDING_PREVIEW_COUNT;
  const [blocks, site, services, packages, demos, articles, faqs] = await Promise.all([
    loggedOnly('landing page config', getLandingBlocks, resolveBlockOrder(undefined)),
    loggedOnly('site content', getSiteContent, resolveSiteContent(undefined)),
    loggedOnly('services', () => previewServices(n), empty<ServiceCardFields>()),
    loggedOnly('packages', () => previewActivePackages(n), empty<PackagePreview>()),
    loggedOnly('demos', () => previewDemos(n), empty<DemoCardFields>()),
    loggedOnly('articles', () => previewPublishedArticles(n), empty<ArticleCardFields>()),
    loggedOnly(
      'FAQs',
      async () => faqsOrDefaults((await listFaqs()).map(({ id, question, answer }) => ({ id, question, answer }))),
      [...DEFAULT_FAQS],
    ),
  ]);
  return { blocks, site, services, packages, demos, articles, faqs };
}

/**
 * The landing page's content changes only when an admin saves, and every save names its cache tags: one
 * read per change (in every process, through the event bus), not one per render. A failed read is not
 * kept, so the section-by-section fallback below runs and the next render tries again.
 */
const snapshot = tagMemo(
  [CACHE_TAGS.landing, CACHE_TAGS.site, CACHE_TAGS.services, CACHE_TAGS.packages, CACHE_TAGS.demos, CACHE_TAGS.articles, CACHE_TAGS.faqs],
  PUBLIC_PAGE_MAX_AGE_SECONDS * 1000,
  async (): Promise<LandingPage> => {
    // Resolved here, once per change: the stored documents are parsed against their schemas (zod), which
    // a render would otherwise repeat.
    const snap = await readLandingSnapshot(LANDING_PREVIEW_COUNT, { landing: LANDING_CONFIG_KEY, site: SITE_CONTENT_KEY });
    return {
      blocks: blocksFromConfig(snap.landingConfig),
      site: resolveSiteContent(snap.siteContent ?? undefined),
      services: snap.services,
      packages: snap.packages,
      demos: snap.demos,
      articles: snap.articles,
      faqs: faqsOrDefaults(snap.faqs),
    };
  },
);

/**
 * `request` (the page's Astro.request) shares the site texts with the navbar and footer of the same
 * render, so they do not read them again.
 */
export async function loadLandingPage(request?: Request): Promise<LandingPage> {
  let page: LandingPage;
  try {
    page = await snapshot.get('');
  } catch (err) {
    logger.error({ err }, 'landing page snapshot failed; reading each section on its own');
    page = await loadLandingPageSectionBySection();
  }
  if (request) primeSiteContent(request, page.site);
  return page;
}

/**
 * The public pages' reads, each kept in memory until an admin's save invalidates its cache tags (the same
 * signal that drops the route cache, in every process: docs/decisions/022), so a page rendered again (its
 * route-cache entry dropped or expired, or the cache off) does not read the database again (issue 21).
 * Admin previews and everything else keep calling the repositories directly. Values are shared: read-only.
 */
import { memoizedRead } from '../../cache/memo';
import { CACHE_TAGS, PUBLIC_PAGE_MAX_AGE_SECONDS } from '../../cache/tags';
import * as articles from '../articles/repository';
import * as catalog from '../catalog/repository';
import { readSiteContent } from '../site/service';
import { packageCardsOrThrow } from './package-cards';
import { readStoredPolicy } from './service';

const TTL_MS = PUBLIC_PAGE_MAX_AGE_SECONDS * 1000;
const { services, packages, demos } = CACHE_TAGS;

/** The site texts every page's navbar and footer show (rejects when the read fails: see siteContentFor). */
export const publicSiteContent = memoizedRead([CACHE_TAGS.site], TTL_MS, readSiteContent);
/** A policy page's stored document (/privacy, /terms). */
export const publicStoredPolicy = memoizedRead([CACHE_TAGS.policies], TTL_MS, readStoredPolicy);

export const publicServices = memoizedRead([services], TTL_MS, () => catalog.listServices());
export const publicService = memoizedRead([services], TTL_MS, (id: string) => catalog.getService(id));
export const publicDemos = memoizedRead([demos], TTL_MS, () => catalog.listDemos());
export const publicDemo = memoizedRead([demos], TTL_MS, (id: string) => catalog.getDemo(id));
export const publicPackage = memoizedRead([packages, services], TTL_MS, (id: string) => catalog.getActivePackage(id));

/** The active packages as cards (their services and BEST VALUE), as /packages shows them. */
export const publicPackageCards = memoizedRead([packages, services], TTL_MS, async () => packageCardsOrThrow(await catalog.listActivePackages()));

/** An active package's card (its services and BEST VALUE), as its page shows it; none for an unknown id. */
export const publicPackageCard = memoizedRead([packages, services], TTL_MS, async (id: string) => {
  const pkg = await catalog.getActivePackage(id);
  return pkg ? (await packageCardsOrThrow([pkg]))[0] : undefined;
});

/** The cards of the active packages that include a service, as its page shows them. */
export const publicPackageCardsIncluding = memoizedRead([packages, services], TTL_MS, async (serviceId: string) =>
  packageCardsOrThrow(await catalog.listActivePackagesIncluding(serviceId)),
);

export const publicArticleCount = memoizedRead([CACHE_TAGS.articles], TTL_MS, (tag: string | undefined) => articles.countPublishedArticles(tag));
export const publicArticleTags = memoizedRead([CACHE_TAGS.articles], TTL_MS, () => articles.listPublishedTags());
export const publicArticles = memoizedRead([CACHE_TAGS.articles], TTL_MS, (opts: { limit: number; offset: number; tag: string | undefined }) =>
  articles.listPublishedArticles(opts),
);
export const publishedArticle = memoizedRead([CACHE_TAGS.articles], TTL_MS, (slug: string) => articles.getPublishedArticleBySlug(slug));
export const relatedArticles = memoizedRead([CACHE_TAGS.articles], TTL_MS, (id: string, tags: string[]) => articles.listRelatedArticles({ id, tags }));

/**
 * Route-cache tags per content type. Public pages declare the tags of the content they render; a write
 * invalidates the tags it touches, in this process and — through the event bus — in every other one
 * (docs/decisions/022). Invalidation goes through here because Astro throws when no cache provider is
 * configured (dev, tests): that case is not an error for a write.
 */
import type { AstroGlobal, APIContext } from 'astro';
import { enqueueCdnPurge } from '../cdn/purge-queue';
import { onEvent, onResync, publish } from '../events/bus';
import { logger } from '../logger';
import { clearAllMemos, invalidateMemos } from './memo';
import { clearRouteCache, invalidateRouteCache } from './route-cache';

export const CACHE_TAGS = {
  services: 'services',
  packages: 'packages',
  demos: 'demos',
  articles: 'articles',
  faqs: 'faqs',
  site: 'site',
  seo: 'seo',
  landing: 'landing',
  /** /privacy and /terms (app_config 'page:privacy' / 'page:terms'). */
  policies: 'policies',
  /** The chat widget's settings: every public page carries the widget (or, switched off, none). */
  chat: 'chat',
} as const;

export type CacheTag = (typeof CACHE_TAGS)[keyof typeof CACHE_TAGS];

/** How long a public page may be served from the route cache before it is rendered again. */
export const PUBLIC_PAGE_MAX_AGE_SECONDS = 300;

type CacheHolder = Pick<AstroGlobal, 'cache'> | Pick<APIContext, 'cache'>;

/** Every public page shows the site texts, its SEO and the chat widget. */
const EVERY_PAGE_TAGS = [CACHE_TAGS.site, CACHE_TAGS.seo, CACHE_TAGS.chat] as const;

/** Marks this public response cacheable under the given tags (and those every page carries). */
export function cachePublicPage(ctx: CacheHolder, tags: readonly CacheTag[]) {
  if (!ctx.cache?.enabled) return;
  ctx.cache.set({ maxAge: PUBLIC_PAGE_MAX_AGE_SECONDS, tags: [...new Set([...tags, ...EVERY_PAGE_TAGS])] });
}

export const TAGS_TOPIC = 'cache.tags';

// Another process wrote: its tags leave this process's memos and route cache. The route cache is reached
// through its registration: an event has no request to call `cache.invalidate` on.
onEvent<{ tags: string[] }>(TAGS_TOPIC, ({ tags }) => {
  invalidateMemos(tags);
  invalidateRouteCache(tags);
});
// This process may have missed invalidations: everything it cached is dropped.
onResync('route-cache', () => {
  clearAllMemos();
  clearRouteCache();
});

/** Drops the pages and memos of `tags`: in this process through the request's cache, then in every other one. */
export async function invalidateTags(ctx: CacheHolder, tags: readonly CacheTag[]) {
  // In-process memos first: they must drop even where no route cache is configured (dev, tests).
  invalidateMemos(tags);
  try {
    await ctx.cache?.invalidate({ tags: [...tags] });
  } catch (err) {
    logger.debug({ err }, 'route cache not configured; nothing to invalidate');
  }
  // This process's part is done; the others are told.
  await publish(TAGS_TOPIC, { tags: [...tags] }, { here: false });
  // After this process's own copy is gone, so the CDN's next fetch gets the new page (decision 024). The
  // other processes may still hold theirs for the NOTIFY's few milliseconds: the purge is sent from the
  // queue after that (decision 022).
  await enqueueCdnPurge(tags);
}

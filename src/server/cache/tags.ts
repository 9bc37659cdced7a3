/**
 * Route-cache tags per content type. Public pages declare the tags of the content they render; a write
 * invalidates the tags it touches, in this process and — through the event bus — in every other one
 * (docs/decisions/022).
 */
import type { AstroGlobal, APIContext } from 'astro';
import { onEvent, onResync, publish } from '../events/bus';
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

const TAGS_TOPIC = 'cache.tags';

// A write's tags leave the memos and the route cache of this process (at once) and of every other one.
// The route cache is reached through its registration, not the request: other processes have none.
onEvent<{ tags: string[] }>(TAGS_TOPIC, ({ tags }) => {
  invalidateMemos(tags);
  invalidateRouteCache(tags);
});
// This process may have missed invalidations: everything it cached is dropped.
onResync('route-cache', () => {
  clearAllMemos();
  clearRouteCache();
});

/**
 * Drops the pages and memos of `tags` on every server process. `ctx` is the request's (kept so callers
 * say where a write came from); where no route cache is configured (dev, tests) only memos drop.
 */
export async function invalidateTags(_ctx: CacheHolder, tags: readonly CacheTag[]) {
  await publish(TAGS_TOPIC, { tags: [...tags] });
}

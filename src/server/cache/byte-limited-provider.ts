/**
 * Astro route-cache provider backed by ByteLimitedStore. Only GET responses that a page marked cacheable
 * (Astro.cache.set → CDN-Cache-Control max-age), with status 200, no cookie, no per-request Vary and a
 * public path are stored; the stored response keeps the headers the middleware added, so hits carry the
 * same security headers as fresh renders. The same responses, and only those, get the shared-cache headers
 * (s-maxage and purge tags, shared-cache.ts) a CDN in front stores them by: what is personal here is
 * personal there too.
 */
import type { CacheProvider, CacheProviderFactory } from 'astro';
import { isPrivatePath } from '../security-headers';
import { ByteLimitedStore, type CachedPage } from './byte-store';
import { applySharedCacheHeaders } from './shared-cache';
import { registerFastPath } from './fast-path';
import { hasUnstorableQuery, queryParamsReadAt } from './page-queries';
import { invalidateMemos } from './memo';
import { registerRouteCache } from './route-cache';

/** Headers that steer this cache, not browsers or CDNs: kept out of the stored (replayed) headers. */
const NOT_REPLAYED = new Set(['set-cookie', 'cdn-cache-control', 'x-astro-cache', 'content-length']);

/**
 * Path plus the parameters the page reads (page-queries.ts), sorted. Any other parameter cannot change the
 * page: one entry serves every campaign link, and invented query strings are hits, not renders.
 */
export function cacheKey(url: URL): string {
  if (!url.search) return url.pathname;
  const reads = queryParamsReadAt(url.pathname);
  const params = new URLSearchParams();
  for (const [name, value] of url.searchParams) if (reads.has(name)) params.append(name, value);
  params.sort();
  const qs = params.toString();
  return `${url.pathname}${qs ? `?${qs}` : ''}`;
}

function maxAgeOf(response: Response): number {
  const match = /max-age=(\d+)/i.exec(response.headers.get('CDN-Cache-Control') ?? '');
  return match ? Number(match[1]) : 0;
}

/**
 * Cookies set with Astro.cookies are not headers yet when the provider sees the response: Astro keeps them
 * on the response under this symbol and writes them after the cache step.
 */
const ASTRO_COOKIES = Symbol.for('astro.cookies');

function setsCookie(response: Response): boolean {
  if (response.headers.has('set-cookie')) return true;
  const cookies = Reflect.get(response, ASTRO_COOKIES) as { headers?: () => Iterable<string> } | undefined;
  if (typeof cookies?.headers !== 'function') return false;
  for (const _ of cookies.headers()) return true;
  return false;
}

/** A response that may be replayed to every visitor. */
function isStorable(response: Response, pathname: string): boolean {
  if (response.status !== 200 || isPrivatePath(pathname)) return false;
  if (setsCookie(response)) return false;
  if (/private|no-store/i.test(response.headers.get('Cache-Control') ?? '')) return false;
  const vary = response.headers.get('Vary');
  // We key on the URL only: a response that varies by anything but encoding would be served to the wrong visitor.
  if (vary && vary.split(',').some((h) => h.trim().toLowerCase() !== 'accept-encoding')) return false;
  return true;
}

/** How many query URLs seen once are remembered (a few hundred KB of keys at most). */
const SEEN_ONCE_LIMIT = 10_000;

/** `stores: false` (ROUTE_CACHE=false) keeps every page out: each request renders, with the same headers. */
export function createByteLimitedProvider(maxBytes?: number, { stores = true } = {}): CacheProvider & { readonly store: ByteLimitedStore; clear(): void } {
  const store = new ByteLimitedStore(maxBytes);
  // Admission: a URL with a query string is stored the second time it is asked for. One-off queries
  // (cache busters, a flood of random parameters) then never push real pages out of the cache, and the
  // render they cost is not followed by a copy into memory.
  const seenOnce = new Set<string>();
  // Bumped by every invalidation: a render that began before one (it may have read the old content) is
  // answered but not stored. Another process's write reaches here while such a render runs.
  let generation = 0;
  const admit = (key: string) => {
    if (!stores) return false;
    if (!key.includes('?') || seenOnce.delete(key)) return true;
    if (seenOnce.size >= SEEN_ONCE_LIMIT) seenOnce.clear();
    seenOnce.add(key);
    return false;
  };
  return {
    name: 'byte-limited-memory',
    store,
    async onRequest(context, next) {
      if (context.request.method !== 'GET' || hasUnstorableQuery(context.url)) return next();
      const key = cacheKey(context.url);
      const cached = store.get(key);
      if (cached) {
        // Response copies an ArrayBuffer body itself, so the stored bytes stay untouched.
        const headers = new Headers(cached.headers);
        headers.set('X-Astro-Cache', 'HIT');
        return new Response(cached.body, { status: cached.status, headers });
      }
      const renderedFrom = generation;
      const response = await next();
      const maxAgeSeconds = maxAgeOf(response);
      if (maxAgeSeconds <= 0 || !isStorable(response, context.url.pathname)) return response;
      const tags = (response.headers.get('Cache-Tag') ?? '')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      applySharedCacheHeaders(response.headers, tags);
      if (generation !== renderedFrom || !admit(key)) {
        response.headers.set('X-Astro-Cache', 'MISS');
        return response;
      }
      const entry: CachedPage = {
        body: await response.clone().arrayBuffer(),
        status: response.status,
        headers: [...response.headers].filter(([k]) => !NOT_REPLAYED.has(k.toLowerCase())),
        storedAt: Date.now(),
        maxAgeSeconds,
        tags,
      };
      store.set(key, entry);
      // The original response goes on: it carries what Astro attached to it (cookies) besides headers.
      response.headers.set('X-Astro-Cache', 'MISS');
      return response;
    },
    /** Drops every page (this process may have missed invalidations). */
    clear() {
      generation += 1;
      store.deleteWhere(() => true);
    },
    async invalidate({ path, tags }) {
      const tagList = tags === undefined ? [] : Array.isArray(tags) ? tags : [tags];
      generation += 1;
      invalidateMemos(tagList);
      store.deleteWhere(
        (key, entry) =>
          (path !== undefined && key.split('?')[0] === path) || entry.tags.some((t) => tagList.includes(t)),
      );
    },
  };
}

const provider: CacheProviderFactory<{ maxBytes?: number }> = (options) => {
  // ROUTE_CACHE_BYTES and ROUTE_CACHE are read at run time, not at build time (config.ts validates them).
  const fromEnv = process.env.ROUTE_CACHE_BYTES ? Number(process.env.ROUTE_CACHE_BYTES) : undefined;
  const stores = !/^(false|0|no)$/.test(process.env.ROUTE_CACHE ?? '');
  const provider = createByteLimitedProvider(options?.maxBytes ?? fromEnv, { stores });
  registerFastPath(provider.store, cacheKey);
  registerRouteCache({
    invalidate: (tags) => void provider.invalidate({ tags: [...tags] }),
    clear: () => provider.clear(),
  });
  return provider;
};

export default provider;

/**
 * Astro route-cache provider backed by ByteLimitedStore. Only GET responses that a page marked cacheable
 * (Astro.cache.set → CDN-Cache-Control max-age) and that set no cookie are stored; the stored response
 * keeps the headers the middleware added, so hits carry the same security headers as fresh renders.
 */
import type { CacheProvider, CacheProviderFactory } from 'astro';
import { ByteLimitedStore, type CachedPage } from './byte-store';

function cacheKey(url: URL): string {
  const params = new URLSearchParams(url.searchParams);
  for (const key of [...params.keys()]) if (/^(utm_|fbclid$|gclid$|ref$)/i.test(key)) params.delete(key);
  params.sort();
  const qs = params.toString();
  return `${url.pathname}${qs ? `?${qs}` : ''}`;
}

function maxAgeOf(response: Response): number {
  const match = /max-age=(\d+)/i.exec(response.headers.get('CDN-Cache-Control') ?? '');
  return match ? Number(match[1]) : 0;
}

const provider: CacheProviderFactory<{ maxBytes?: number }> = (options): CacheProvider => {
  const fromEnv = process.env.ROUTE_CACHE_BYTES ? Number(process.env.ROUTE_CACHE_BYTES) : undefined;
  const store = new ByteLimitedStore(options?.maxBytes ?? fromEnv);
  return {
    name: 'byte-limited-memory',
    async onRequest(context, next) {
      if (context.request.method !== 'GET') return next();
      const key = cacheKey(context.url);
      const cached = store.get(key);
      if (cached) {
        const response = new Response(cached.body.slice(0), { status: cached.status, headers: cached.headers });
        response.headers.set('X-Astro-Cache', 'HIT');
        return response;
      }
      const response = await next();
      const maxAgeSeconds = maxAgeOf(response);
      if (maxAgeSeconds <= 0 || response.headers.has('set-cookie') || response.status >= 500) return response;
      const entry: CachedPage = {
        body: await response.clone().arrayBuffer(),
        status: response.status,
        headers: [...response.headers].filter(([k]) => k.toLowerCase() !== 'set-cookie'),
        storedAt: Date.now(),
        maxAgeSeconds,
        tags: (response.headers.get('Cache-Tag') ?? '')
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
      };
      store.set(key, entry);
      response.headers.set('X-Astro-Cache', 'MISS');
      return response;
    },
    async invalidate({ path, tags }) {
      const tagList = tags === undefined ? [] : Array.isArray(tags) ? tags : [tags];
      store.deleteWhere(
        (key, entry) =>
          (path !== undefined && key.split('?')[0] === path) || entry.tags.some((t) => tagList.includes(t)),
      );
    },
  };
};

export default provider;
